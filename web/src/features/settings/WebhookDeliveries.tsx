import { useEffect, useState } from 'react';
import type { WebhookDelivery, WebhookDeliveryPage } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Pagination } from '../../ui/Pagination';
import { DELIVERIES_PAGE_SIZE, describeAttempt, describeDelivery, fetchDeliveries, formatDeliveryAt, resendDelivery } from './webhooks';

/**
 * One endpoint's delivery log (30 days, newest first): status, latency, time, every attempt under it (a
 * "Reenviar" adds one, the first failure stays), the payload on demand, "Reenviar".
 */
export function WebhookDeliveries({ endpointId, reload }: { endpointId: string; reload: number }) {
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<WebhookDeliveryPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [resent, setResent] = useState(0);

  useEffect(() => {
    let current = true;
    fetchDeliveries(endpointId, page)
      .then((body) => {
        if (current) {
          setResult(body);
          setFailed(false);
        }
      })
      .catch((err: unknown) => {
        console.error('No se pudo cargar el registro de entregas', err);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [endpointId, page, reload, resent]);

  async function resend(delivery: WebhookDelivery) {
    try {
      const after = await resendDelivery(endpointId, delivery.id);
      if (after.status === 'delivered') toast.success('Entrega reenviada');
      else toast.error(`El reenvío falló: ${after.error ?? 'sin respuesta'}`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setResent((n) => n + 1);
  }

  if (failed) return <p role="alert">No se pudo cargar el registro de entregas.</p>;
  if (!result) return <p className="muted">Cargando...</p>;
  if (result.data.length === 0) return <p className="muted">Todavía no hay entregas en los últimos 30 días.</p>;
  return (
    <div className="webhook-deliveries">
      <ul>
        {result.data.map((delivery) => (
          <li key={delivery.id} className={`webhook-delivery webhook-delivery-${delivery.status}`}>
            <div className="webhook-delivery-line">
              <span className="webhook-delivery-status">{describeDelivery(delivery)}</span>
              <code>{delivery.type}</code>
              <span className="muted">{delivery.latencyMs === null ? '—' : `${delivery.latencyMs} ms`}</span>
              <time className="muted" dateTime={delivery.lastAttemptAt ?? delivery.createdAt}>
                {formatDeliveryAt(delivery.lastAttemptAt ?? delivery.createdAt)}
              </time>
              <Button variant="secondary" small onClick={() => void resend(delivery)}>
                Reenviar
              </Button>
            </div>
            {delivery.error && <p className="webhook-delivery-error">{delivery.error}</p>}
            {delivery.attemptLog.length > 0 && (
              <ol className="webhook-attempts" aria-label="Intentos">
                {delivery.attemptLog.map((attempt) => (
                  <li key={attempt.attempt} className={`webhook-attempt-${attempt.status}`} title={attempt.error ?? undefined}>
                    <time dateTime={attempt.at}>{describeAttempt(attempt)}</time>
                  </li>
                ))}
              </ol>
            )}
            <details>
              <summary>Ver contenido</summary>
              <pre>{JSON.stringify(delivery.payload, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ul>
      <Pagination page={result.pagination.page} pageSize={DELIVERIES_PAGE_SIZE} total={result.pagination.total} onPage={setPage} />
    </div>
  );
}
