import { isEmail, type FieldErrors } from '../../lib/validation';

export interface LoginForm {
  email: string;
  password: string;
}

export function validateLogin({ email, password }: LoginForm): FieldErrors<keyof LoginForm> {
  return {
    email: !email.trim() ? 'El correo es requerido' : !isEmail(email) ? 'Correo electrónico inválido' : undefined,
    password: !password
      ? 'La contraseña es requerida'
      : password.length < 6
        ? 'La contraseña debe tener al menos 6 caracteres'
        : undefined,
  };
}
