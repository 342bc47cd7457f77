/**
 * The history state the reset screen leaves on /login, so the login form can confirm the change. Here
 * because two features (login, password-reset) share it.
 */
export interface PasswordResetDone {
  passwordReset: true;
}

export const isPasswordResetDone = (state: unknown): state is PasswordResetDone =>
  typeof state === 'object' && state !== null && (state as Partial<PasswordResetDone>).passwordReset === true;
