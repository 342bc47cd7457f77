import { useEffect, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { SaveOrRoleNote } from '../../ui/SaveOrRoleNote';
import { ASSIGNMENT_CHOICES, fetchInboxRules, saveInboxRules, type InboxSettings } from './inbox-rules';
import './inbox-rules.css';

/**
 * Configuración → "Bandeja compartida": who new conversations go to, and whether only the assignee answers.
 * Not `editable`: the rules shown as they are, for a role that may read them but not change them.
 */
export function InboxRulesCard({ editable }: { editable: boolean }) {
  const [rules, setRules] = useState<InboxSettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    fetchInboxRules()
      .then((body) => current && setRules(body))
      .catch((err: unknown) => {
        console.error('No se pudieron cargar las reglas de la bandeja', err);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!rules) return;
    setSaving(true);
    try {
      setRules(await saveInboxRules(rules));
      toast.success('Reglas de la bandeja guardadas');
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card inbox-rules" aria-labelledby="bandeja-compartida">
      <h2 id="bandeja-compartida" className="card-title">
        Bandeja compartida
      </h2>
      <p className="muted">Cómo se reparten las conversaciones del equipo en Conversaciones.</p>
      {failed && <p role="alert">No se pudieron cargar las reglas de la bandeja. Inténtalo de nuevo.</p>}
      {!rules && !failed && <p className="muted">Cargando...</p>}
      {rules && (
        <form onSubmit={onSubmit} noValidate>
          <div className="field inbox-rules-field">
            <label htmlFor="bandeja-asignacion">Asignar las conversaciones nuevas a</label>
            <select
              id="bandeja-asignacion"
              aria-describedby="bandeja-asignacion-hint"
              value={rules.assignment}
              disabled={!editable}
              onChange={(e) => setRules({ ...rules, assignment: e.target.value as InboxSettings['assignment'] })}
            >
              {ASSIGNMENT_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
            <p id="bandeja-asignacion-hint" className="field-hint">
              Solo reciben conversaciones las personas marcadas como «Disponible».
            </p>
          </div>
          <label className="inbox-rules-check">
            <input
              type="checkbox"
              checked={rules.onlyAssigneeSends}
              disabled={!editable}
              onChange={(e) => setRules({ ...rules, onlyAssigneeSends: e.target.checked })}
            />
            Solo la persona asignada puede responder
          </label>
          <SaveOrRoleNote editable={editable} saving={saving} />
        </form>
      )}
    </section>
  );
}
