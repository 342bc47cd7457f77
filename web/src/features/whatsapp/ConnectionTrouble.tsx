import { Button } from '../../ui/Button';
import type { WhatsAppStatus } from './api';

/** What the owner can check on their side when WhatsApp cannot be reached. */
const ADVICE = [
  'Comprueba que tu teléfono tiene conexión a internet (wifi o datos).',
  'Actualiza WhatsApp a la última versión desde la tienda de aplicaciones.',
  'Si sigue sin funcionar, espera unos minutos e inténtalo más tarde: a veces el problema es de WhatsApp.',
];

/**
 * A connection that is not working, said for the shop owner: still trying (with the attempt), given up (with
 * what to check and "Reintentar"), or unlinked from the phone. Nothing for the plain disconnected state.
 * Without `onRetry` (a role that may not connect) nothing offers, nor asks for, a new connection.
 */
export function ConnectionTrouble({ status, busy, onRetry }: { status: WhatsAppStatus; busy: boolean; onRetry?: () => void }) {
  if (status.state === 'failed') {
    return (
      <div className="alert-warning wa-trouble" role="alert">
        <p>
          <strong>No se pudo conectar con WhatsApp.</strong> Lo intentamos varias veces sin respuesta y hemos parado. Antes de
          volver a probar:
        </p>
        <ul>
          {ADVICE.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {onRetry && (
          <Button disabled={busy} onClick={onRetry}>
            Reintentar
          </Button>
        )}
      </div>
    );
  }
  if (status.state === 'error') {
    return (
      <div className="alert-warning wa-trouble" role="alert">
        <p>
          <strong>Intentando conectar con WhatsApp…</strong> {status.error}
        </p>
        <p>{ADVICE[0]}</p>
      </div>
    );
  }
  if (status.state === 'logged_out') {
    return (
      <p className="alert-warning" role="alert">
        {status.error ?? 'El teléfono cerró la sesión.'}{' '}
        {onRetry ? 'Pulsa «Conectar WhatsApp» para vincularlo de nuevo.' : 'Un administrador tiene que vincularlo de nuevo.'}
      </p>
    );
  }
  if (status.state === 'connecting') {
    return (
      <p className="muted" role="status">
        Conectando con WhatsApp…
      </p>
    );
  }
  return null;
}
