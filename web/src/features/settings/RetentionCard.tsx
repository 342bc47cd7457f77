import { useEffect, useState, type FormEvent } from 'react';
import type { RetentionSettings } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { SaveOrRoleNote } from '../../ui/SaveOrRoleNote';
import { fetchRetention, RETENTION_FIELDS, retentionOptions, saveRetention, toDays } from './retention';
import './retention.css';

/**
 * Configuración → "Conservación de datos": how long WhatsApp messages, mail bodies and AI runs are kept.
 * Not `editable`: the periods shown as they are, for a role that may read them but not change them.
 */
export function RetentionCard({ editable }: { editable: boolean }) {
  const [settings, setSettings] = useState<RetentionSettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    fetchRetention()
      .then((body) => current && setSettings(body))
      .catch((err: unknown) => {
        console.error('No se pudo cargar la conservación de datos', err);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!settings) return;
    setSaving(true);
    try {
      setSettings(await saveRetention(settings));
      toast.success('Conservación de datos guardada');
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card retention" aria-labelledby="conservacion-datos">
      <h2 id="conservacion-datos" className="card-title">
        Conservación de datos
      </h2>
      <p className="muted">
        Elige cuánto tiempo guardamos cada tipo de dato. Cada día se borra lo que sea más antiguo que el plazo elegido. Los totales de
        Analíticas no se borran.
      </p>
      {failed && <p role="alert">No se pudo cargar la conservación de datos. Inténtalo de nuevo.</p>}
      {!settings && !failed && <p className="muted">Cargando...</p>}
      {settings && (
        <form onSubmit={onSubmit} noValidate>
          <div className="retention-fields">
            {RETENTION_FIELDS.map(({ key, label, hint }) => (
              <div className="field" key={key}>
                <label htmlFor={`retention-${key}`}>{label}</label>
                <select
                  id={`retention-${key}`}
                  aria-describedby={`retention-${key}-hint`}
                  value={settings[key] === null ? '' : String(settings[key])}
                  disabled={!editable}
                  onChange={(e) => setSettings({ ...settings, [key]: toDays(e.target.value) })}
                >
                  {retentionOptions(settings[key]).map((option) => (
                    <option key={option.value} value={option.value}>
                      {option.label}
                    </option>
                  ))}
                </select>
                <p id={`retention-${key}-hint`} className="field-hint">
                  {hint}
                </p>
              </div>
            ))}
          </div>
          <SaveOrRoleNote editable={editable} saving={saving} />
        </form>
      )}
    </section>
  );
}
