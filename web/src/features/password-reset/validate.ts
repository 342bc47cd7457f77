import { isEmail, newPasswordError, type FieldErrors } from '../../lib/validation';

export type ForgotForm = { email: string };
export type NewPasswordForm = { password: string; confirmPassword: string };

export function validateForgot({ email }: ForgotForm): FieldErrors<keyof ForgotForm> {
  return { email: !email.trim() ? 'El correo es requerido' : !isEmail(email) ? 'Correo electrónico inválido' : undefined };
}

/** The register form's rules (lib/validation). */
export function validateNewPassword({ password, confirmPassword }: NewPasswordForm): FieldErrors<keyof NewPasswordForm> {
  return {
    password: newPasswordError(password),
    confirmPassword: !confirmPassword
      ? 'Confirma tu contraseña'
      : confirmPassword !== password
        ? 'Las contraseñas no coinciden'
        : undefined,
  };
}
