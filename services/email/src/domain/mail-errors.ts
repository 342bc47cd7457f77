/** A mail server could not be reached or refused the login; `reason` is in Spanish for the owner. */
export class MailConnectError extends Error {
  constructor(
    readonly server: 'IMAP' | 'SMTP',
    readonly reason: string,
    readonly authFailed = false,
  ) {
    super(`No se pudo conectar al servidor ${server}: ${reason}`);
    this.name = 'MailConnectError';
  }
}
