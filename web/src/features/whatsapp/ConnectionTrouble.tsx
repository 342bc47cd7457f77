import { Button } from '../../ui/Button';
import type { WhatsAppStatus } from './api';

/**
 * A connection that is not working, said for the shop owner: still trying (with the attempt), given up (with
 * what to check and "Reintentar"), unlinked from the phone, or its QRs gone unscanned. Nothing for the plain
 * disconnected state.
 * Without `onRetry` (a role that may not connect) nothing offers, nor asks for, a new connection.
 */
export function ConnectionTrouble({ status, busy, onRetry }: { status: WhatsAppStatus; busy: boolean; onRetry?: () => void }) {
  // Giving up and retrying happen with no QR in play (a QR that went unscanned ends in "disconnected", and a
  // linked phone needs none): the trouble is between the server and WhatsApp, never the owner's phone.
  if (status.state === 'failed') {
    return (
      <div className="alert-warning wa-trouble" role="alert">
        <p>
          <strong>No se pudo contactar con los servidores de WhatsApp.</strong> Revisa la conexión a internet del servidor.
        </p>
        <p>
          Lo intentamos varias veces sin respuesta y hemos parado. Si sigue sin funcionar, espera unos minutos e inténtalo más
          tarde: a veces el problema es de WhatsApp.
        </p>
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
        <p>Si no se resuelve, revisa la conexión a internet del servidor.</p>
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
  if (status.state === 'disconnected' && status.qrShown && !status.hasSession) {
    return (
      <p className="muted" role="status">
        El código QR caducó sin escanearse.{' '}
        {onRetry ? 'Pulsa «Actualizar QR» para ver uno nuevo.' : 'Un administrador puede mostrar uno nuevo.'}
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
