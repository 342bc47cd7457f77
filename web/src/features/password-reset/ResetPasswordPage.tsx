import { useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ApiError, errorMessage } from '../../lib/errors';
import { clearSession } from '../../lib/session-state';
import { AuthLayout } from '../../ui/AuthLayout';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { PasswordField } from '../../ui/PasswordField';
import { useForm } from '../../ui/use-form';
import { resetPassword, type PasswordResetDone } from './api';
import { validateNewPassword } from './validate';
import '../../ui/auth-forms.css';

const FOOTER = (
  <>
    ¿La recordaste? <Link href="/login">Inicia sesión</Link>
  </>
);

/** The link's codes that mean "ask for another" (spent, unknown or expired): the form cannot help any more. */
const DEAD_LINK = new Set(['RESET_LINK_USED', 'RESET_LINK_EXPIRED']);

/** /restablecer?token=…: the page a reset link opens, signed in or not. */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? '';
  const [, navigate] = useLocation();
  const { formRef, values, bind, check } = useForm({ password: '', confirmPassword: '' }, validateNewPassword);
  const [failure, setFailure] = useState<{ message: string; deadLink: boolean } | null>(null);
  const [waiting, setWaiting] = useState(false);

  if (!token) {
    return (
      <AuthLayout title="Restablecer contraseña" subtitle="Este enlace no está completo" footer={FOOTER}>
        <p className="form-error" role="alert">
          Al enlace le falta su código. Ábrelo tal como llegó en el correo, o <Link href="/recuperar-contrasena">pide uno nuevo</Link>.
        </p>
      </AuthLayout>
    );
  }

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!check()) return;
    setWaiting(true);
    try {
      await resetPassword(token, values.password);
      // Every session of the account has just ended, this browser's too: sign in again with the new password.
      clearSession();
      const done: PasswordResetDone = { passwordReset: true };
      navigate('/login', { replace: true, state: done });
    } catch (err) {
      setFailure({ message: errorMessage(err), deadLink: err instanceof ApiError && DEAD_LINK.has(err.code) });
      setWaiting(false);
    }
  };

  const edited = (field: 'password' | 'confirmPassword') => {
    const bound = bind(field);
    return {
      ...bound,
      onInput: (e: { currentTarget: HTMLInputElement }) => {
        if (!failure?.deadLink) setFailure(null);
        bound.onInput(e);
      },
    };
  };

  return (
    <AuthLayout title="Restablecer contraseña" subtitle="Elige una contraseña nueva para tu cuenta" footer={FOOTER}>
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <PasswordField label="Nueva contraseña" autoComplete="new-password" {...edited('password')} />
        <PasswordField label="Confirmar contraseña" autoComplete="new-password" {...edited('confirmPassword')} />
        <p className="field-hint">Al guardarla se cerrarán todas las sesiones abiertas de tu cuenta, también en otros dispositivos.</p>
        <Button type="submit" className="btn-block" disabled={waiting || failure?.deadLink === true}>
          {waiting ? 'Guardando...' : 'Guardar contraseña'}
        </Button>
        <FormError message={failure?.message ?? null} />
        {failure?.deadLink && (
          <p>
            <Link href="/recuperar-contrasena">Pedir un enlace nuevo</Link>
          </p>
        )}
      </form>
    </AuthLayout>
  );
}
