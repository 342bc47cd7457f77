import { useState } from 'react';
import type { MemberRole, WorkspaceMember } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { MEMBER_ROLES, ROLE_LABELS } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { changeMemberRole, formatLastActive, memberName, removeMember } from './team';

interface MembersTableProps {
  members: WorkspaceMember[];
  /** The signed-in person: their own row has no controls (leaving or demoting oneself is not done from here). */
  meId: string;
  /** Role changes and removals; the owner's row never has them. */
  manage: boolean;
  /**
   * The workspace carries its founder's id, and the services act under it on the workspace's behalf: the
   * founder's role may change, but they are never removed (the server answers 409).
   */
  founderId: string;
  onChanged: () => void;
}

export function MembersTable({ members, meId, manage, founderId, onChanged }: MembersTableProps) {
  const [changing, setChanging] = useState<string | null>(null);
  const [removing, setRemoving] = useState<WorkspaceMember | null>(null);
  const [busy, setBusy] = useState(false);
  const managed = (member: WorkspaceMember) => manage && member.role !== 'owner' && member.userId !== meId;

  async function changeRole(member: WorkspaceMember, role: MemberRole) {
    setChanging(member.userId);
    try {
      await changeMemberRole(member.userId, role);
      toast.success(`${memberName(member)} ahora es ${ROLE_LABELS[role].toLowerCase()}`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setChanging(null);
    // Also after a refusal: the select goes back to what the server keeps.
    onChanged();
  }

  async function remove(member: WorkspaceMember) {
    setBusy(true);
    try {
      await removeMember(member.userId);
      toast.success(`${memberName(member)} ya no está en el equipo`);
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setBusy(false);
    setRemoving(null);
  }

  return (
    <div className="table-wrap">
      <table className="table team-members">
        <caption className="sr-only">Miembros del equipo</caption>
        <thead>
          <tr>
            <th scope="col">Nombre</th>
            <th scope="col">Correo</th>
            <th scope="col">Rol</th>
            <th scope="col">Última actividad</th>
            {manage && (
              <th scope="col">
                <span className="sr-only">Acciones</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const name = memberName(member);
            return (
              <tr key={member.userId}>
                <td className="team-member-name">
                  {name}
                  {member.userId === meId && <span className="muted"> (tú)</span>}
                </td>
                <td className="team-member-email">{member.email}</td>
                <td>
                  {managed(member) ? (
                    <select
                      aria-label={`Rol de ${name}`}
                      value={member.role}
                      disabled={changing === member.userId}
                      onChange={(e) => {
                        const role = MEMBER_ROLES.find((r) => r === e.target.value);
                        if (role) void changeRole(member, role);
                      }}
                    >
                      {MEMBER_ROLES.map((role) => (
                        <option key={role} value={role}>
                          {ROLE_LABELS[role]}
                        </option>
                      ))}
                    </select>
                  ) : (
                    ROLE_LABELS[member.role]
                  )}
                </td>
                <td className="team-member-active">{formatLastActive(member)}</td>
                {manage && (
                  <td className="team-member-actions">
                    {managed(member) && member.userId !== founderId && (
                      <Button variant="danger" small onClick={() => setRemoving(member)} aria-label={`Quitar a ${name}`}>
                        Quitar
                      </Button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {removing && (
        <ConfirmDialog
          title="Quitar del equipo"
          message={`¿Quitar a ${memberName(removing)} del equipo? Dejará de tener acceso a este espacio de trabajo al momento.`}
          confirmLabel="Quitar"
          busy={busy}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </div>
  );
}
