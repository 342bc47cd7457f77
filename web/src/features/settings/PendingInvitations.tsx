import { useState } from 'react';
import type { WorkspaceInvitation } from '@asistente/contracts';
import { copyText } from '../../lib/clipboard';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { ROLE_LABELS } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { cancelInvitation, formatInvitationExpiry } from './team';

interface PendingInvitationsProps {
  invitations: WorkspaceInvitation[] | null;
  failed: boolean;
  onChanged: () => void;
}

/** Invitations not yet accepted: each link can be copied again, or cancelled so that it stops working. */
export function PendingInvitations({ invitations, failed, onChanged }: PendingInvitationsProps) {
  const [cancelling, setCancelling] = useState<WorkspaceInvitation | null>(null);
  const [busy, setBusy] = useState(false);

  async function cancel(invitation: WorkspaceInvitation) {
    setBusy(true);
    try {
      await cancelInvitation(invitation.id);
      toast.success('Invitación cancelada');
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setBusy(false);
    setCancelling(null);
  }

  return (
    <section className="team-invitations" aria-labelledby="invitaciones-pendientes">
      <h3 id="invitaciones-pendientes" className="team-subtitle">
        Invitaciones pendientes
      </h3>
      {failed && <p role="alert">No se pudieron cargar las invitaciones. Inténtalo de nuevo.</p>}
      {!invitations && !failed && <p className="muted">Cargando...</p>}
      {invitations && invitations.length === 0 && <p className="muted">No hay invitaciones pendientes.</p>}
      {invitations && invitations.length > 0 && (
        <>
          <p className="muted">Envía a cada persona su enlace: al abrirlo, crea su cuenta o inicia sesión y entra en este espacio de trabajo.</p>
          <ul className="team-invitation-list">
            {invitations.map((invitation) => (
              <li key={invitation.id} className="team-invitation">
                <div className="team-invitation-main">
                  <p className="team-invitation-email">{invitation.email}</p>
                  <p className="muted team-invitation-meta">
                    {ROLE_LABELS[invitation.role]} · {formatInvitationExpiry(invitation)}
                  </p>
                </div>
                <div className="team-invitation-actions">
                  <Button
                    variant="secondary"
                    small
                    onClick={() => void copyText(invitation.link, 'Enlace copiado')}
                    aria-label={`Copiar enlace de la invitación a ${invitation.email}`}
                  >
                    Copiar enlace
                  </Button>
                  <Button variant="danger" small onClick={() => setCancelling(invitation)} aria-label={`Cancelar la invitación a ${invitation.email}`}>
                    Cancelar
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
      {cancelling && (
        <ConfirmDialog
          title="Cancelar invitación"
          message={`¿Cancelar la invitación a ${cancelling.email}? Su enlace dejará de funcionar.`}
          confirmLabel="Cancelar invitación"
          busy={busy}
          onConfirm={() => void cancel(cancelling)}
          onCancel={() => setCancelling(null)}
        />
      )}
    </section>
  );
}
