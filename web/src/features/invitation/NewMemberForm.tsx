import { useState, type FormEvent } from 'react';
import type { InvitationPreview } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { enterWorkspace } from '../../lib/workspaces';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { PasswordField } from '../../ui/PasswordField';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { acceptInvitation } from './api';
import { validateNewMember } from './validate';

/** A person without an account: their name and a password create it, join the workspace and sign in. */
export function NewMemberForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const { formRef, values, bind, check } = useForm({ firstName: '', lastName: '', password: '' }, validateNewMember);
  const [failure, setFailure] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!check()) return;
    setWaiting(true);
    try {
      enterWorkspace(
        await acceptInvitation({ token, firstName: values.firstName.trim(), lastName: values.lastName.trim(), password: values.password }),
      );
    } catch (err) {
      setFailure(errorMessage(err));
      setWaiting(false);
    }
  };

  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Crear tu cuenta">
      <TextField label="Correo electrónico" type="email" autoComplete="username" value={invitation.email} readOnly />
      <div className="form-row">
        <TextField label="Nombre" autoComplete="given-name" {...bind('firstName')} />
        <TextField label="Apellido" autoComplete="family-name" {...bind('lastName')} />
      </div>
      <PasswordField label="Contraseña" autoComplete="new-password" {...bind('password')} />
      <Button type="submit" className="btn-block" disabled={waiting}>
        {waiting ? 'Creando cuenta...' : 'Crear cuenta y unirme'}
      </Button>
      <FormError message={failure} />
    </form>
  );
}
