import type { InvitationPreview } from '@asistente/contracts';
import { Link, useSearch } from 'wouter';
import { logout } from '../../lib/auth';
import { originState } from '../../lib/origin';
import { useSession } from '../../lib/session-state';
import type { User } from '../../lib/types';
import { ROLE_LABELS } from '../../lib/workspace-roles';
import { AuthLayout } from '../../ui/AuthLayout';
import { Button } from '../../ui/Button';
import { JoinButton } from './JoinButton';
import { NewMemberForm } from './NewMemberForm';
import { useInvitation } from './use-invitation';
import '../../ui/auth-forms.css';
import './invitation.css';

const TITLE = 'Invitación a un equipo';
const FOOTER = <>¿No esperabas esta invitación? Puedes ignorarla.</>;
const DATE = new Intl.DateTimeFormat('es-ES', { dateStyle: 'long' });

/** /invitacion?token=…: the page an invitation link opens, signed in or not (who is signed in decides what it offers). */
export function InvitationPage() {
  const search = useSearch();
  const token = new URLSearchParams(search).get('token') ?? '';
  const { user, token: session, loading } = useSession();
  const load = useInvitation(token);

  if (!token) {
    return (
      <AuthLayout title={TITLE} subtitle="Este enlace no está completo" footer={FOOTER}>
        <p className="form-error" role="alert">
          Al enlace le falta su código. Ábrelo tal como te llegó, o pide a quien te invitó que te lo envíe de nuevo.
        </p>
      </AuthLayout>
    );
  }
  if (load.state === 'failed') {
    return (
      <AuthLayout title={TITLE} subtitle="No se puede usar este enlace" footer={FOOTER}>
        <p className="form-error" role="alert">
          {load.message}
        </p>
        <p className="muted">Pide a quien te invitó que te envíe una invitación nueva.</p>
      </AuthLayout>
    );
  }
  // A stored session is still being checked: who is signed in decides what the page offers.
  if (load.state === 'loading' || loading || (session && !user)) {
    return (
      <AuthLayout title={TITLE} subtitle="Un momento" footer={FOOTER}>
        <p className="muted" role="status">
          Cargando la invitación...
        </p>
      </AuthLayout>
    );
  }

  const { invitation } = load;
  return (
    <AuthLayout
      title={TITLE}
      subtitle={`Te han invitado a ${invitation.workspace.name} como ${ROLE_LABELS[invitation.role].toLowerCase()}.`}
      footer={FOOTER}
    >
      <p className="invitation-details">
        Te invita {invitation.invitedBy.firstName} {invitation.invitedBy.lastName}. La invitación es para <strong>{invitation.email}</strong> y
        caduca el {DATE.format(new Date(invitation.expiresAt))}.
      </p>
      <InvitationAnswer token={token} search={search} invitation={invitation} user={user} />
    </AuthLayout>
  );
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What the person can do now: create the account, join, sign in first, or leave another account's session. */
function InvitationAnswer({ token, search, invitation, user }: { token: string; search: string; invitation: InvitationPreview; user: User | null }) {
  if (user && !sameAddress(user.email, invitation.email)) {
    return (
      <div className="form-notice form-notice-info" role="status">
        <p>
          Has iniciado sesión como {user.email}. Esta invitación es para {invitation.email}: cierra la sesión para{' '}
          {invitation.hasAccount ? `entrar con ${invitation.email}` : 'crear su cuenta'}.
        </p>
        <Button variant="secondary" small className="invitation-logout" onClick={logout}>
          Cerrar sesión
        </Button>
      </div>
    );
  }
  if (!invitation.hasAccount) return <NewMemberForm token={token} invitation={invitation} />;
  if (user) return <JoinButton token={token} workspaceName={invitation.workspace.name} />;
  return (
    <p className="invitation-sign-in">
      <Link href="/login" state={originState('/invitacion', search)}>
        Inicia sesión con {invitation.email} para aceptar
      </Link>
    </p>
  );
}
