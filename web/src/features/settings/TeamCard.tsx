import { useSession } from '../../lib/session-state';
import { InviteForm } from './InviteForm';
import { MembersTable } from './MembersTable';
import { PendingInvitations } from './PendingInvitations';
import { teamPermissions } from './team';
import { useTeam } from './use-team';
import { WorkspaceName } from './WorkspaceNameForm';
import './team.css';

/** Configuración → "Equipo": the workspace's name and members; invitations and roles for those who manage it. */
export function TeamCard() {
  const { user } = useSession();
  const { team, reloadMembers, reloadInvitations, renamed } = useTeam();
  const { workspace, members, failed } = team;
  // Until the role is known nothing is offered: an agent never sees a control the server would refuse.
  const can = workspace ? teamPermissions(workspace.role) : null;

  return (
    <section className="card team" aria-labelledby="equipo">
      <h2 id="equipo" className="card-title">
        Equipo
      </h2>
      {failed && <p role="alert">No se pudo cargar el equipo. Inténtalo de nuevo.</p>}
      {(!workspace || !members) && !failed && <p className="muted">Cargando...</p>}
      {workspace && can && <WorkspaceName workspace={workspace} editable={can.rename} onRenamed={renamed} />}
      {workspace && members && can && user && (
        <>
          <h3 className="team-subtitle">Miembros</h3>
          <MembersTable members={members} meId={user.id} manage={can.manageMembers} founderId={workspace.id} onChanged={() => void reloadMembers()} />
        </>
      )}
      {can?.invite && <InviteForm onInvited={() => void reloadInvitations()} />}
      {can?.seeInvitations && <PendingInvitations invitations={team.invitations} failed={team.invitationsFailed} onChanged={() => void reloadInvitations()} />}
    </section>
  );
}
