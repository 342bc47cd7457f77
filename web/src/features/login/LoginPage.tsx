import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { login } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { hasErrors } from '../../lib/validation';
import { AuthLayout } from '../../ui/AuthLayout';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { focusFirstInvalid } from '../../ui/focus';
import { PasswordField } from '../../ui/PasswordField';
import { TextField } from '../../ui/TextField';
import { isPasswordResetDone } from '../../lib/password-reset';
import { isAccountDeleted } from '../../lib/account-deletion';
import { validateLogin, type LoginForm } from './validate';
import '../../ui/auth-forms.css';

export function LoginPage() {
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<LoginForm>({ email: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [waiting, setWaiting] = useState(false);
  /** The server's refusal (wrong password…): it stays under the form until the person edits a field. */
  const [failure, setFailure] = useState<string | null>(null);
  const historyState: unknown = useHistoryState();
  const passwordReset = isPasswordResetDone(historyState);
  const accountDeleted = isAccountDeleted(historyState);
  const errors = submitted ? validateLogin(form) : {};

  const update = (field: keyof LoginForm) => (value: string) => {
    setFailure(null);
    setForm((f) => ({ ...f, [field]: value }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (hasErrors(validateLogin(form))) return focusFirstInvalid(formRef.current);
    setWaiting(true);
    try {
      // On success the guest guard sends the user on to where they were heading.
      await login({ email: form.email.trim(), password: form.password });
    } catch (err) {
      const message = errorMessage(err);
      setFailure(message);
      toast.error(message);
      setWaiting(false);
    }
  };

  return (
    <AuthLayout
      title="Iniciar Sesión"
      subtitle="Accede a tu asistente de negocio"
      footer={
        <>
          ¿No tienes cuenta? <Link href="/register">Regístrate</Link>
        </>
      }
    >
      {accountDeleted && (
        <p className="form-notice" role="status">
          Tu cuenta y todos sus datos se han eliminado. Gracias por haber usado Mi Asistente.IA.
        </p>
      )}
      {passwordReset && (
        <p className="form-notice" role="status">
          Tu contraseña se ha cambiado. Inicia sesión con la nueva.
        </p>
      )}
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <TextField
          label="Correo electrónico"
          type="email"
          autoComplete="email"
          placeholder="tu@empresa.com"
          value={form.email}
          onInput={(e) => update('email')(e.currentTarget.value)}
          error={errors.email}
        />
        <PasswordField
          label="Contraseña"
          autoComplete="current-password"
          value={form.password}
          onInput={(e) => update('password')(e.currentTarget.value)}
          error={errors.password}
        />
        <p className="auth-forgot">
          <Link href="/recuperar-contrasena">¿Olvidaste tu contraseña?</Link>
        </p>
        <Button type="submit" className="btn-block" disabled={waiting}>
          {waiting ? 'Iniciando sesión...' : 'Iniciar Sesión'}
        </Button>
        <FormError message={failure} />
      </form>
    </AuthLayout>
  );
}
