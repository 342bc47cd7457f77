import { useState, type FormEvent } from 'react';
import type { MemberRole } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { isEmail } from '../../lib/validation';
import { MEMBER_ROLES, ROLE_LABELS } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/TextField';
import { createInvitation } from './team';

/** An address and a role; the invitation then waits in the list below with its link. */
export function InviteForm({ onInvited }: { onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('agent');
  const [error, setError] = useState<string | undefined>(undefined);
  const [serverError, setServerError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    const found = !address ? 'El correo es requerido' : !isEmail(address) ? 'Correo inválido' : undefined;
    setError(found);
    if (found) return;
    setSending(true);
    setServerError(null);
    try {
      await createInvitation({ email: address, role });
      setEmail('');
      toast.success(`Invitación creada para ${address}`);
      onInvited();
    } catch (err) {
      setServerError(errorMessage(err));
    }
    setSending(false);
  }

  return (
    <form className="team-invite" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="invitar-al-equipo">
      <h3 id="invitar-al-equipo" className="team-subtitle">
        Invitar al equipo
      </h3>
      <div className="team-invite-fields">
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="off"
          placeholder="persona@empresa.com"
          maxLength={254}
          value={email}
          error={error}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <div className="field team-invite-role">
          <label htmlFor="invitacion-rol">Rol</label>
          <select id="invitacion-rol" value={role} onChange={(e) => setRole(MEMBER_ROLES.find((r) => r === e.target.value) ?? 'agent')}>
            {MEMBER_ROLES.map((option) => (
              <option key={option} value={option}>
                {ROLE_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={sending}>
          {sending ? 'Invitando...' : 'Invitar'}
        </Button>
      </div>
      <p className="field-hint">Un administrador también gestiona el equipo y las conexiones; un agente trabaja con los contactos, los chats y los correos.</p>
      <FormError message={serverError} />
    </form>
  );
}
