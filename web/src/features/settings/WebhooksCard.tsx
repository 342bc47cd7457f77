import { useCallback, useEffect, useState } from 'react';
import type { WebhookEndpoint, WebhookEndpointBody, WebhookEndpointCreated } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CopyableSecret } from '../../ui/CopyableSecret';
import { WebhookDeliveries } from './WebhookDeliveries';
import { WebhookForm } from './WebhookForm';
import { createWebhook, deleteWebhook, EVENT_LABELS, listWebhooks, testWebhook, updateWebhook } from './webhooks';
import './webhooks.css';

type Editing = { kind: 'new' } | { kind: 'edit'; endpoint: WebhookEndpoint } | null;

/**
 * Configuración → "Webhooks": the owner's endpoints with their state, the form to add or change one, the
 * signing secret shown once after adding, "Probar", each endpoint's delivery log, and deletion.
 */
export function WebhooksCard() {
  const [endpoints, setEndpoints] = useState<WebhookEndpoint[] | null>(null);
  const [max, setMax] = useState(10);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [created, setCreated] = useState<WebhookEndpointCreated | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [logVersion, setLogVersion] = useState(0);

  const load = useCallback(() => {
    listWebhooks()
      .then((body) => {
        setEndpoints(body.endpoints);
        setMax(body.max);
        setFailed(false);
      })
      .catch((err: unknown) => {
        console.error('No se pudieron cargar los webhooks', err);
        setFailed(true);
      });
  }, []);
  useEffect(load, [load]);

  async function save(body: WebhookEndpointBody) {
    if (editing?.kind === 'edit') {
      await updateWebhook(editing.endpoint.id, body);
      toast.success('Webhook actualizado');
    } else {
      setCreated(await createWebhook(body));
    }
    setEditing(null);
    load();
  }

  async function setEnabled(endpoint: WebhookEndpoint, enabled: boolean) {
    try {
      await updateWebhook(endpoint.id, { enabled });
      load();
    } catch (err) {
      toast.error(errorMessage(err));
    }
  }

  async function test(endpoint: WebhookEndpoint) {
    try {
      const delivery = await testWebhook(endpoint.id);
      if (delivery.status === 'delivered') toast.success(`Prueba entregada (${delivery.responseStatus ?? ''}) en ${delivery.latencyMs ?? 0} ms`);
      else toast.error(`La prueba falló: ${delivery.error ?? 'sin respuesta'}`);
      setOpen(endpoint.id);
      setLogVersion((n) => n + 1);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  }

  async function remove(endpoint: WebhookEndpoint) {
    try {
      await deleteWebhook(endpoint.id);
      toast.success('Webhook eliminado');
      load();
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setDeleting(null);
  }

  return (
    <section className="card webhooks" aria-labelledby="webhooks-title">
      <div className="webhooks-header">
        <h2 id="webhooks-title" className="card-title">
          Webhooks
        </h2>
        {endpoints && endpoints.length < max && !editing && (
          <Button small onClick={() => setEditing({ kind: 'new' })}>
            Añadir webhook
          </Button>
        )}
      </div>
      <p className="muted">
        Avisa a tus herramientas (n8n, Make, Zapier o tus propios scripts) cuando pasa algo en tu cuenta. Cada envío va firmado según Standard Webhooks. Hasta {max} webhooks.
      </p>

      {created && (
        <div className="webhook-secret" role="status">
          <p>
            <strong>Guarda este secreto ahora:</strong> no volverá a mostrarse. Sirve para comprobar la firma de cada envío.
          </p>
          <CopyableSecret value={created.secret} label="Secreto de firma" copiedMessage="Secreto copiado" className="webhook-secret-value" />
          <Button variant="ghost" small onClick={() => setCreated(null)}>
            Ya lo he guardado
          </Button>
        </div>
      )}

      {editing && <WebhookForm {...(editing.kind === 'edit' ? { endpoint: editing.endpoint } : {})} onSubmit={save} onCancel={() => setEditing(null)} />}

      {failed && <p role="alert">No se pudieron cargar los webhooks. Inténtalo de nuevo.</p>}
      {!endpoints && !failed && <p className="muted">Cargando...</p>}
      {endpoints && endpoints.length === 0 && !editing && <p className="muted">Todavía no tienes webhooks.</p>}
      {endpoints && endpoints.length > 0 && (
        <ul className="webhook-list">
          {endpoints.map((endpoint) => (
            <li key={endpoint.id} className="webhook-item" aria-label={`Webhook ${endpoint.url}`}>
              <div className="webhook-item-head">
                <div className="webhook-item-what">
                  <p className="webhook-url">{endpoint.url}</p>
                  {endpoint.description && <p className="muted">{endpoint.description}</p>}
                  <p className="muted webhook-item-events">{endpoint.events.map((type) => EVENT_LABELS[type]).join(' · ')}</p>
                  {endpoint.idsOnly && <p className="muted webhook-item-events">Solo identificadores</p>}
                </div>
                <span className={`badge ${endpoint.enabled ? 'badge-connected' : 'badge-disconnected'}`}>{endpoint.enabled ? 'Activo' : 'Desactivado'}</span>
              </div>
              {!endpoint.enabled && endpoint.disabledReason && <p className="webhook-disabled-reason">{endpoint.disabledReason}</p>}
              {endpoint.enabled && endpoint.failingSince && (
                <p className="webhook-disabled-reason">Las entregas fallan desde {new Date(endpoint.failingSince).toLocaleString('es-ES')}</p>
              )}
              <div className="webhook-actions">
                <Button variant="secondary" small onClick={() => void test(endpoint)}>
                  Probar
                </Button>
                <Button variant="secondary" small onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)} aria-expanded={open === endpoint.id}>
                  Entregas
                </Button>
                <Button variant="secondary" small onClick={() => setEditing({ kind: 'edit', endpoint })}>
                  Editar
                </Button>
                <Button variant="secondary" small onClick={() => void setEnabled(endpoint, !endpoint.enabled)}>
                  {endpoint.enabled ? 'Desactivar' : 'Activar'}
                </Button>
                <Button variant="danger" small onClick={() => setDeleting(endpoint)}>
                  Eliminar
                </Button>
              </div>
              {open === endpoint.id && <WebhookDeliveries endpointId={endpoint.id} reload={logVersion} />}
            </li>
          ))}
        </ul>
      )}

      {deleting && (
        <ConfirmDialog
          title="Eliminar webhook"
          message={`Se dejará de enviar a ${deleting.url} y se borrará su registro de entregas.`}
          confirmLabel="Eliminar"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </section>
  );
}
