import { useId, useState } from 'react';
import { usePermissions } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { RoleNote } from '../../ui/RoleNote';
import { whatsappPermissions } from './api';
import { ConnectionTrouble } from './ConnectionTrouble';
import type { Connection } from './use-connection';

/**
 * The badge, the buttons of each state, what went wrong in plain words and the QR panel with its countdown.
 * Linking and unlinking the workspace's phone is for the roles the role table lets: the rest see the state.
 */
export function ConnectionCard({ connection }: { connection: Connection }) {
  const titleId = useId();
  const [confirmingReset, setConfirmingReset] = useState(false);
  const can = usePermissions(whatsappPermissions);
  const { status, qrCode, notice, secondsLeft, busy } = connection;
  const connected = status?.connected ?? false;
  const state = status?.state;
  // The error and failed states explain themselves below; a connect's advice would only repeat them.
  const showNotice = !connected && !qrCode && notice !== null && state !== 'error' && state !== 'failed';
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
      {status?.provider === 'cloud' && <p className="muted">Proveedor: API oficial de WhatsApp (Cloud API)</p>}
      {connected && status?.phone && (
        <p className="muted">
          {status.name ? `${status.name} · ` : ''}
          {status.phone}
        </p>
      )}
      {/* A QR on screen is a live attempt (the status catches up a moment later): earlier trouble no longer applies. */}
      {!connected && !qrCode && status && (
        <ConnectionTrouble status={status} busy={busy !== null} onRetry={can?.connect ? () => void connection.connectNow() : undefined} />
      )}
      {showNotice && (
        <p className="alert-warning" role="status">
          {notice}
        </p>
      )}
      <div className="wa-actions">
        {connected ? (
          <>
            {/* The Cloud API's number is disconnected from its own card: this button unlinks a phone. */}
            {can?.disconnect && status?.provider !== 'cloud' && (
              <Button variant="secondary" disabled={busy !== null} onClick={() => void connection.disconnectNow()}>
                {busy === 'disconnect' ? 'Desconectando...' : 'Desconectar'}
              </Button>
            )}
            <Button disabled={busy !== null} onClick={() => void connection.sync()}>
              {busy === 'sync' ? 'Sincronizando...' : 'Sincronizar contactos de WhatsApp'}
            </Button>
          </>
        ) : (
          <>
            {can?.connect && (
              <>
                <Button disabled={busy !== null || status === null} onClick={() => void connection.connectNow()}>
                  {busy === 'connect' ? 'Conectando...' : 'Conectar WhatsApp'}
                </Button>
                <Button variant="secondary" disabled={busy !== null || status === null} onClick={() => void connection.refreshQr()}>
                  {busy === 'refresh' ? 'Actualizando...' : 'Actualizar QR'}
                </Button>
              </>
            )}
            {/* Nothing to reset before a phone was linked: "Conectar WhatsApp" and "Actualizar QR" cover that. */}
            {can?.resetSession && status?.hasSession && (
              <Button variant="danger" disabled={busy !== null || status === null} onClick={() => setConfirmingReset(true)}>
                {busy === 'reset' ? 'Restableciendo...' : 'Restablecer sesión'}
              </Button>
            )}
          </>
        )}
      </div>
      {!connected && can && !can.connect && <RoleNote>Solo un administrador puede conectar WhatsApp</RoleNote>}
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
      {confirmingReset && (
        <ConfirmDialog
          title="¿Restablecer la sesión de WhatsApp?"
          message="Tu teléfono dejará de estar vinculado a Mi Asistente.IA y tendrás que escanear un código QR nuevo para volver a conectar. Las conversaciones guardadas aquí no se borran."
          confirmLabel="Sí, restablecer"
          onConfirm={() => {
            setConfirmingReset(false);
            void connection.reset();
          }}
          onCancel={() => setConfirmingReset(false)}
        />
      )}
    </section>
  );
}
