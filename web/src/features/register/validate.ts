import { isEmail, type FieldErrors } from '../../lib/validation';

export type RegisterForm = {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phone: string;
  password: string;
  confirmPassword: string;
};

function name(value: string, requiredMessage: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return requiredMessage;
  return trimmed.length < 2 ? 'Mínimo 2 caracteres' : undefined;
}

export function validateRegister(form: RegisterForm): FieldErrors<keyof RegisterForm> {
  return {
    firstName: name(form.firstName, 'El nombre es requerido'),
    lastName: name(form.lastName, 'El apellido es requerido'),
    email: !form.email.trim() ? 'El correo es requerido' : !isEmail(form.email) ? 'Correo inválido' : undefined,
    password: !form.password ? 'La contraseña es requerida' : form.password.length < 6 ? 'Mínimo 6 caracteres' : undefined,
    confirmPassword: !form.confirmPassword
      ? 'Confirma tu contraseña'
      : form.confirmPassword !== form.password
        ? 'Las contraseñas no coinciden'
        : undefined,
  };
}
