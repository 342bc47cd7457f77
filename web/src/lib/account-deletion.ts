/**
 * The history state the deletion leaves on /login, so the login page can say the account is gone. Here
 * because two features (settings, login) share it.
 */
export interface AccountDeleted {
  accountDeleted: true;
}

export const isAccountDeleted = (state: unknown): state is AccountDeleted =>
  typeof state === 'object' && state !== null && (state as Partial<AccountDeleted>).accountDeleted === true;
