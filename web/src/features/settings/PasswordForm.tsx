import { useState, type FormEvent } from 'react';
import { changePassword } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import type { FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { useForm } from '../../ui/use-form';

type Passwords = {
  current: string;
  next: string;
  confirm: string;
};

const EMPTY: Passwords = { current: '', next: '', confirm: '' };

function validate(p: Passwords): FieldErrors<keyof Passwords> {
  return {
    current: p.current ? undefined : 'La contraseña es requerida',
    next: !p.next ? 'La contraseña es requerida' : p.next.length < 6 ? 'Mínimo 6 caracteres' : undefined,
    confirm: !p.confirm ? 'Confirma tu contraseña' : p.confirm !== p.next ? 'Las contraseñas no coinciden' : undefined,
  };
}

export function PasswordForm() {
  const { formRef, values: passwords, bind, check, reset } = useForm(EMPTY, validate);
  const [saving, setSaving] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setSaving(true);
    try {
      await changePassword(passwords.current, passwords.next);
      toast.success('Contraseña actualizada');
      reset();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby="cambiar-contrasena">
      <h2 id="cambiar-contrasena" className="card-title">
        Cambiar Contraseña
      </h2>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <PasswordField label="Contraseña actual" autoComplete="current-password" {...bind('current')} />
        <PasswordField label="Nueva contraseña" autoComplete="new-password" {...bind('next')} />
        <PasswordField label="Confirmar nueva contraseña" autoComplete="new-password" {...bind('confirm')} />
        <div className="form-actions">
          <Button type="submit" disabled={saving}>
            {saving ? 'Actualizando...' : 'Actualizar Contraseña'}
          </Button>
        </div>
      </form>
    </section>
  );
}
