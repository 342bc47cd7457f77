import { useRef, useState, type FormEvent } from 'react';
import { changePassword } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { hasErrors, type FieldErrors } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { focusFirstInvalid } from '../../ui/focus';
import { PasswordField } from '../../ui/PasswordField';

interface Passwords {
  current: string;
  next: string;
  confirm: string;
}

const EMPTY: Passwords = { current: '', next: '', confirm: '' };

function validate(p: Passwords): FieldErrors<keyof Passwords> {
  return {
    current: p.current ? undefined : 'La contraseña es requerida',
    next: !p.next ? 'La contraseña es requerida' : p.next.length < 6 ? 'Mínimo 6 caracteres' : undefined,
    confirm: !p.confirm ? 'Confirma tu contraseña' : p.confirm !== p.next ? 'Las contraseñas no coinciden' : undefined,
  };
}

export function PasswordForm() {
  const formRef = useRef<HTMLFormElement>(null);
  const [passwords, setPasswords] = useState(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const errors = submitted ? validate(passwords) : {};

  const bind = (field: keyof Passwords) => ({
    value: passwords[field],
    onInput: (e: { currentTarget: HTMLInputElement }) => {
      const { value } = e.currentTarget;
      setPasswords((p) => ({ ...p, [field]: value }));
    },
    error: errors[field],
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (hasErrors(validate(passwords))) return focusFirstInvalid(formRef.current);
    setSaving(true);
    try {
      await changePassword(passwords.current, passwords.next);
      toast.success('Contraseña actualizada');
      setPasswords(EMPTY);
      setSubmitted(false);
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
