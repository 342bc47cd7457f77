import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { login } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { hasErrors } from '../../lib/validation';
import { AuthLayout } from '../../ui/AuthLayout';
import { Button } from '../../ui/Button';
import { focusFirstInvalid } from '../../ui/focus';
import { PasswordField } from '../../ui/PasswordField';
import { TextField } from '../../ui/TextField';
import { validateLogin, type LoginForm } from './validate';

export function LoginPage() {
  const formRef = useRef<HTMLFormElement>(null);
  const [form, setForm] = useState<LoginForm>({ email: '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [waiting, setWaiting] = useState(false);
  const errors = submitted ? validateLogin(form) : {};

  const update = (field: keyof LoginForm) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (hasErrors(validateLogin(form))) return focusFirstInvalid(formRef.current);
    setWaiting(true);
    try {
      // On success the guest guard sends the user on to where they were heading.
      await login({ email: form.email.trim(), password: form.password });
    } catch (err) {
      toast.error(errorMessage(err));
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
        <Button type="submit" className="btn-block" disabled={waiting}>
          {waiting ? 'Iniciando sesión...' : 'Iniciar Sesión'}
        </Button>
      </form>
    </AuthLayout>
  );
}
