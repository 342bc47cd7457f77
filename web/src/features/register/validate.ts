import { isEmail, newPasswordError, personNameError, type FieldErrors } from '../../lib/validation';

export type RegisterForm = {
  firstName: string;
  lastName: string;
  email: string;
  company: string;
  phone: string;
  password: string;
  confirmPassword: string;
};

export function validateRegister(form: RegisterForm): FieldErrors<keyof RegisterForm> {
  return {
    firstName: personNameError(form.firstName, 'El nombre es requerido'),
    lastName: personNameError(form.lastName, 'El apellido es requerido'),
    email: !form.email.trim() ? 'El correo es requerido' : !isEmail(form.email) ? 'Correo inválido' : undefined,
    password: newPasswordError(form.password),
    confirmPassword: !form.confirmPassword
      ? 'Confirma tu contraseña'
      : form.confirmPassword !== form.password
        ? 'Las contraseñas no coinciden'
        : undefined,
  };
}
