import type { ForgotPasswordResponse, PasswordResetAvailability } from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

/** Whether the server can mail reset links (SMTP_URL); without it the owner asks the administrator. */
export const resetByMailAvailable = () =>
  getJson<PasswordResetAvailability>('auth/password/reset-available').then((answer) => answer.available);

export const requestResetLink = (email: string) => sendJson<ForgotPasswordResponse>('post', 'auth/password/forgot', { email });

export const resetPassword = (token: string, newPassword: string) =>
  sendJson<{ success: boolean }>('post', 'auth/password/reset', { token, newPassword });

export { isPasswordResetDone, type PasswordResetDone } from '../../lib/password-reset';
