import type { MailComposer, OutgoingMail } from '../domain/mail-composer.js';

/** nodemailer's composer, loaded by the first mail written, not with the service. */
export class MimeComposer implements MailComposer {
  async compose(mail: OutgoingMail): Promise<Buffer> {
    const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
    return new MailComposer(mail).compile().build();
  }
}
