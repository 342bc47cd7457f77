import type { EmailPreview, EmailPreviewBody, PersonalTokenScope } from '@asistente/contracts';
import { AppError } from '@asistente/kit';
import { bareAddress } from './recipients.js';
import { contactValues, hasVariables, resolveVariables, type RecipientContacts } from './variables.js';

/** One recipient's copy of a mail written with `{variables}`. */
export interface PersonalCopy {
  /** The recipient as typed (`Ana <ana@x.es>` or `ana@x.es`). */
  recipient: string;
  contactFound: boolean;
  subject: string;
  body: string;
  unresolved: string[];
}

/**
 * A mail with variables becomes one copy per recipient, each filled from that recipient's contact as it is at
 * send time, never from what the screen showed earlier.
 */
export class Personalizer {
  constructor(private readonly contacts: RecipientContacts) {}

  needed(subject: string, body: string): boolean {
    return hasVariables(subject) || hasVariables(body);
  }

  async copies(userId: string, to: string[], subject: string, body: string, scopes?: readonly PersonalTokenScope[]): Promise<PersonalCopy[]> {
    return Promise.all(to.map((recipient) => this.copy(userId, recipient, subject, body, scopes)));
  }

  async preview(userId: string, request: EmailPreviewBody, scopes?: readonly PersonalTokenScope[]): Promise<EmailPreview> {
    const first = request.to.split(/[,;]/).map((e) => e.trim()).find(Boolean);
    if (!first || !bareAddress(first).includes('@')) {
      const { unresolved: inSubject } = resolveVariables(request.subject, {});
      const { unresolved: inBody } = resolveVariables(request.body, {});
      return { recipient: null, contactFound: false, subject: request.subject, body: request.body, unresolved: [...new Set([...inSubject, ...inBody])] };
    }
    return this.copy(userId, first, request.subject, request.body, scopes);
  }

  private async copy(userId: string, recipient: string, subject: string, body: string, scopes: readonly PersonalTokenScope[] | undefined): Promise<PersonalCopy> {
    const contact = await this.contacts.byEmail(userId, bareAddress(recipient), scopes);
    const values = contact ? contactValues(contact) : {};
    const filledSubject = resolveVariables(subject, values);
    const filledBody = resolveVariables(body, values);
    return {
      recipient,
      contactFound: contact !== undefined,
      subject: filledSubject.text,
      body: filledBody.text,
      unresolved: [...new Set([...filledSubject.unresolved, ...filledBody.unresolved])],
    };
  }
}

/**
 * 409 naming what is still unfilled (and for whom), so the owner completes it or confirms: nothing is sent.
 * Not a 400: the request is well formed, and the same one goes through once the contact has the data.
 */
export function unresolvedError(copies: PersonalCopy[]): AppError {
  const variables = [...new Set(copies.flatMap((c) => c.unresolved))];
  const whom = copies.filter((c) => c.unresolved.length > 0).map((c) => bareAddress(c.recipient));
  const shown = whom.length > 3 ? `${whom.slice(0, 3).join(', ')} y ${whom.length - 3} más` : whom.join(', ');
  return new AppError(
    409,
    'EMAIL_UNRESOLVED_VARIABLES',
    `El correo tiene variables sin completar: ${variables.join(', ')} (para ${shown}). Complétalas en el texto o en el contacto, o confirma el envío tal cual.`,
  );
}
