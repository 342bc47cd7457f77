import { useId } from 'react';
import { Button } from '../../ui/Button';
import type { Connection } from './use-connection';

/** The badge, the buttons of each state and the QR panel with its countdown. */
export function ConnectionCard({ connection }: { connection: Connection }) {
  const titleId = useId();
  const { status, qrCode, secondsLeft, busy } = connection;
  const connected = status?.connected ?? false;
  return (
    <section className="card wa-connection" aria-labelledby={titleId}>
      <div className="wa-connection-head">
        <h2 id={titleId} className="card-title">
          Conexión
        </h2>
        {status === null ? (
          <span className="badge badge-checking">Comprobando...</span>
        ) : (
          <span className={`badge ${connected ? 'badge-connected' : 'badge-disconnected'}`}>{connected ? 'Conectado' : 'Desconectado'}</span>
        )}
      </div>
      {connected && status?.phone && (
        <p className="muted">
          {status.name ? `${status.name} · ` : ''}
          {status.phone}
        </p>
      )}
      {!connected && status?.state === 'error' && status.error && (
        <p className="alert-warning" role="alert">
          {status.error}
        </p>
      )}
      {!connected && status?.state === 'logged_out' && (
        <p className="alert-warning" role="alert">
          {status.error ?? 'El teléfono cerró la sesión.'} Pulsa «Conectar WhatsApp» para vincularlo de nuevo.
        </p>
      )}
      <div className="wa-actions">
        {connected ? (
          <>
            <Button variant="secondary" disabled={busy !== null} onClick={() => void connection.disconnectNow()}>
              {busy === 'disconnect' ? 'Desconectando...' : 'Desconectar'}
            </Button>
            <Button disabled={busy !== null} onClick={() => void connection.sync()}>
              {busy === 'sync' ? 'Sincronizando...' : 'Sincronizar contactos de WhatsApp'}
            </Button>
          </>
        ) : (
          <>
            <Button disabled={busy !== null || status === null} onClick={() => void connection.connectNow()}>
              {busy === 'connect' ? 'Conectando...' : 'Conectar WhatsApp'}
            </Button>
            <Button variant="secondary" disabled={busy !== null || status === null} onClick={() => void connection.refreshQr()}>
              {busy === 'refresh' ? 'Actualizando...' : 'Actualizar QR'}
            </Button>
            <Button variant="danger" disabled={busy !== null || status === null} onClick={() => void connection.reset()}>
              {busy === 'reset' ? 'Restableciendo...' : 'Restablecer sesión'}
            </Button>
          </>
        )}
      </div>
      {!connected && qrCode && (
        <div className="wa-qr">
          <img src={qrCode} alt="Código QR para vincular WhatsApp" width={240} height={240} />
          <div>
            <p>
              Abre WhatsApp en tu teléfono, ve a <strong>Dispositivos vinculados</strong> y escanea este código.
            </p>
            <p className="wa-countdown" aria-live="polite">
              El código caduca en {secondsLeft} s
            </p>
          </div>
        </div>
      )}
    </section>
  );
}
