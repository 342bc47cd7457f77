import { useEffect, useState, type FormEvent } from 'react';
import type { RetentionSettings } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { SaveOrRoleNote } from '../../ui/SaveOrRoleNote';
import { fetchRetention, RETENTION_FIELDS, retentionOptions, saveRetention, toDays, type RetentionKey } from './retention';
import { useRetentionErasures, type Erasure } from './use-retention-erasures';
import './retention.css';

/**
 * Configuración → "Conservación de datos": how long WhatsApp messages, mail bodies and AI runs are kept.
 * Not `editable`: the periods shown as they are, for a role that may read them but not change them.
 */
const FIELD = Object.fromEntries(RETENTION_FIELDS.map((f) => [f.key, f])) as Record<RetentionKey, (typeof RETENTION_FIELDS)[number]>;
const older = (e: Erasure) => `${FIELD[e.key].what(e.count ?? 0)} de más de ${e.days} días`;

/** Under a field whose period was shortened: what saving would erase, before it is saved. */
function ErasureWarning({ erasure, id }: { erasure: Erasure; id: string }) {
  const { count, days } = erasure;
  let text: string;
  if (count === undefined) text = 'Calculando cuánto se borraría…';
  else if (count === 0) text = `No hay nada de más de ${days} días: no se borrará nada.`;
  else if (count === null) text = `Al guardar, todo lo que tenga más de ${days} días se borrará en las próximas 24 horas y no se podrá recuperar.`;
  else text = `Al guardar se borrarán en las próximas 24 horas, sin poder recuperarlos, ${older(erasure)}.`;
  return (
    <p id={id} className={count ? 'retention-warning' : 'field-hint'} role="status">
      {text}
    </p>
  );
}

export function RetentionCard({ editable }: { editable: boolean }) {
  const [settings, setSettings] = useState<RetentionSettings | null>(null);
  /** As stored: a period shorter than this one erases what lies between. */
  const [saved, setSaved] = useState<RetentionSettings | null>(null);
  /** The erasures the owner is asked to confirm before saving. */
  const [confirming, setConfirming] = useState<Erasure[] | null>(null);
  const { erasures, settle } = useRetentionErasures(saved, settings);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    fetchRetention()
      .then((body) => {
        if (!current) return;
        setSettings(body);
        setSaved(body);
      })
      .catch((err: unknown) => {
        console.error('No se pudo cargar la conservación de datos', err);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, []);

  const save = async () => {
    if (!settings) return;
    setSaving(true);
    try {
      const stored = await saveRetention(settings);
      setSettings(stored);
      setSaved(stored);
      toast.success('Conservación de datos guardada');
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
      setConfirming(null);
    }
  };

  // A shorter period that erases something (or cannot say how much) is confirmed first, with the figures.
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    const pending = (await settle()).filter((e) => e.count !== 0);
    setSaving(false);
    if (pending.length > 0) setConfirming(pending);
    else await save();
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
                  aria-describedby={`retention-${key}-hint retention-${key}-erasure`}
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
                {erasures
                  .filter((e) => e.key === key)
                  .map((e) => (
                    <ErasureWarning key={e.days} erasure={e} id={`retention-${key}-erasure`} />
                  ))}
              </div>
            ))}
          </div>
          <SaveOrRoleNote editable={editable} saving={saving} />
        </form>
      )}
      {confirming && (
        <ConfirmDialog
          title="¿Borrar los datos antiguos?"
          message={`Al guardar se borrarán en las próximas 24 horas y no se podrán recuperar: ${confirming
            .map((e) => (e.count === null ? `todo lo de «${FIELD[e.key].label}» de más de ${e.days} días` : older(e)))
            .join('; ')}.`}
          confirmLabel="Guardar y borrar"
          busy={saving}
          onConfirm={() => void save()}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}
