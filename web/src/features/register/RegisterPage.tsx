import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { register } from '../../lib/auth';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { AuthLayout } from '../../ui/AuthLayout';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/PasswordField';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { validateRegister, type RegisterForm } from './validate';

const EMPTY: RegisterForm = { firstName: '', lastName: '', email: '', company: '', phone: '', password: '', confirmPassword: '' };

export function RegisterPage() {
  const { formRef, values: form, bind, check } = useForm(EMPTY, validateRegister);
  const [waiting, setWaiting] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!check()) return;
    setWaiting(true);
    try {
      const company = form.company.trim();
      const phone = form.phone.trim();
      await register({
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        email: form.email.trim(),
        password: form.password,
        ...(company ? { company } : {}),
        ...(phone ? { phone } : {}),
      });
    } catch (err) {
      toast.error(errorMessage(err));
      setWaiting(false);
    }
  };

  return (
    <AuthLayout
      title="Crear Cuenta"
      subtitle="Empieza a organizar tu negocio en minutos"
      footer={
        <>
          ¿Ya tienes cuenta? <Link href="/login">Inicia sesión</Link>
        </>
      }
    >
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        <div className="form-row">
          <TextField label="Nombre" autoComplete="given-name" {...bind('firstName')} />
          <TextField label="Apellido" autoComplete="family-name" {...bind('lastName')} />
        </div>
        <TextField label="Correo electrónico" type="email" autoComplete="email" placeholder="tu@empresa.com" {...bind('email')} />
        <div className="form-row">
          <TextField label="Empresa (opcional)" autoComplete="organization" {...bind('company')} />
          <TextField label="Teléfono (opcional)" type="tel" autoComplete="tel" {...bind('phone')} />
        </div>
        <PasswordField label="Contraseña" autoComplete="new-password" {...bind('password')} />
        <PasswordField label="Confirmar contraseña" autoComplete="new-password" {...bind('confirmPassword')} />
        <Button type="submit" className="btn-block" disabled={waiting}>
          {waiting ? 'Creando cuenta...' : 'Crear Cuenta'}
        </Button>
      </form>
    </AuthLayout>
  );
}
