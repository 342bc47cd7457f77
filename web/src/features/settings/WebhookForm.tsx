import { useId, useState, type FormEvent } from 'react';
import { WEBHOOK_URL_PATTERN, WEBHOOK_URL_RULE, type WebhookEndpoint, type WebhookEndpointBody, type WebhookEventType } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { EVENT_LABELS, EVENT_TYPES } from './webhooks';

interface WebhookFormProps {
  /** The endpoint being edited; absent when adding one. */
  endpoint?: WebhookEndpoint;
  onSubmit: (body: WebhookEndpointBody) => Promise<void>;
  onCancel: () => void;
}

const URL_SHAPE = new RegExp(WEBHOOK_URL_PATTERN, 'i');

/**
 * URL, event types (checkboxes with their Spanish names), "Solo identificadores" and a description. The URL's
 * scheme is checked here with the server's own rule and words; whether http:// may reach its host only the
 * server knows (the operator's allowed addresses), and answers in the same words.
 */
export function WebhookForm({ endpoint, onSubmit, onCancel }: WebhookFormProps) {
  const [url, setUrl] = useState(endpoint?.url ?? 'https://');
  const [events, setEvents] = useState<WebhookEventType[]>(endpoint?.events ?? []);
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [idsOnly, setIdsOnly] = useState(endpoint?.idsOnly ?? false);
  const idsOnlyHint = useId();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const toggle = (type: WebhookEventType, on: boolean) => setEvents((current) => (on ? [...current, type] : current.filter((t) => t !== type)));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!URL_SHAPE.test(url.trim())) {
      setError(`La URL no es válida. ${WEBHOOK_URL_RULE}`);
      return;
    }
    if (events.length === 0) {
      setError('Elige al menos un tipo de evento');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit({ url: url.trim(), events: EVENT_TYPES.filter((t) => events.includes(t)), description: description.trim(), idsOnly });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="webhook-form" onSubmit={submit} noValidate>
      <TextField label="URL del receptor" type="url" value={url} onChange={(e) => setUrl(e.target.value)} required hint={WEBHOOK_URL_RULE} />
      <fieldset className="webhook-events">
        <legend>Eventos</legend>
        {EVENT_TYPES.map((type) => (
          <label key={type} className="webhook-event">
            <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> {EVENT_LABELS[type]}
            <code className="muted">{type}</code>
          </label>
        ))}
      </fieldset>
      <label className="webhook-ids-only">
        <input type="checkbox" checked={idsOnly} onChange={(e) => setIdsOnly(e.target.checked)} aria-describedby={idsOnlyHint} /> Solo identificadores
      </label>
      <p id={idsOnlyHint} className="field-hint">
        Envía solo los identificadores (por ejemplo, contactId), sin nombre, correo, texto ni horas: tu receptor los pedirá a la API.
      </p>
      <TextField label="Descripción (opcional)" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <div className="webhook-form-actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" disabled={busy}>
          {endpoint ? 'Guardar cambios' : 'Añadir webhook'}
        </Button>
      </div>
    </form>
  );
}
