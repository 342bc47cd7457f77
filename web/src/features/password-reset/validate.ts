import { isEmail, type FieldErrors } from '../../lib/validation';

export type ForgotForm = { email: string };
export type NewPasswordForm = { password: string; confirmPassword: string };

export function validateForgot({ email }: ForgotForm): FieldErrors<keyof ForgotForm> {
  return { email: !email.trim() ? 'El correo es requerido' : !isEmail(email) ? 'Correo electrónico inválido' : undefined };
}

/** The register form's rules; the server adds the rest (no common passwords, no control characters). */
export function validateNewPassword({ password, confirmPassword }: NewPasswordForm): FieldErrors<keyof NewPasswordForm> {
  return {
    password: !password ? 'La contraseña es requerida' : password.length < 6 ? 'Mínimo 6 caracteres' : undefined,
    confirmPassword: !confirmPassword
      ? 'Confirma tu contraseña'
      : confirmPassword !== password
        ? 'Las contraseñas no coinciden'
        : undefined,
  };
}
