import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { Button } from '../../ui/Button';
import { getTemplates, sendTemplate, type CloudTemplate, type WhatsAppMessage } from './api';

/**
 * Outside the customer's 24-hour window WhatsApp only lets an approved template through: the send box
 * offers the account's templates, each with a field per variable, and a preview of what the customer reads.
 */
export function TemplatePicker({ jid, reason, onSent }: { jid: string; reason: string; onSent: (message: WhatsAppMessage) => void }) {
  const id = useId();
  const [templates, setTemplates] = useState<CloudTemplate[] | null>(null);
  const [chosen, setChosen] = useState(0);
  const [values, setValues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getTemplates().then(setTemplates, (err: unknown) => setError(errorMessage(err)));
  }, []);

  const template = templates?.[chosen];
  const filled = template ? Array.from({ length: template.variables }, (_, i) => values[i] ?? '') : [];
  const preview = template ? template.body.replace(/\{\{\s*(\d+)\s*\}\}/g, (p, n: string) => filled[Number(n) - 1] || p) : '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!template) return;
    setBusy(true);
    setError(null);
    try {
      onSent(await sendTemplate(jid, template, filled.map((v) => v.trim())));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="wa-templates" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <p id={`${id}-title`} className="alert-warning" role="status">
        {reason}
      </p>
      {templates === null && !error && <p className="muted">Cargando plantillas...</p>}
      {templates?.length === 0 && <p className="muted">Tu cuenta de WhatsApp Business no tiene plantillas aprobadas.</p>}
      {template && (
        <>
          <div className="field">
            <label htmlFor={`${id}-template`}>Plantilla</label>
            <select
              id={`${id}-template`}
              value={chosen}
              onChange={(e) => {
                setChosen(Number(e.currentTarget.value));
                setValues([]);
              }}
            >
              {templates!.map((t, i) => (
                <option key={`${t.name}-${t.language}`} value={i}>
                  {t.name} ({t.language})
                </option>
              ))}
            </select>
          </div>
          {filled.map((value, i) => (
            <div className="field" key={i}>
              <label htmlFor={`${id}-var-${i}`}>{`Variable {{${i + 1}}}`}</label>
              <input id={`${id}-var-${i}`} value={value} maxLength={1024} onInput={(e) => setValues(filled.map((v, j) => (j === i ? e.currentTarget.value : v)))} />
            </div>
          ))}
          <p className="muted wa-template-preview">{preview}</p>
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <Button type="submit" disabled={busy || !template || filled.some((v) => !v.trim())}>
        {busy ? 'Enviando...' : 'Enviar plantilla'}
      </Button>
    </form>
  );
}
