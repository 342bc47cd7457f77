import type { EmailTemplate, EmailTemplateBody, FilledTemplate, PersonalTokenScope } from '@asistente/contracts';
import { notFound } from '@asistente/kit';
import type { TemplateRow, TemplatesRepository } from './templates.repository.js';
import { contactValues, resolveVariables, type RecipientContacts } from './variables.js';

const NOT_FOUND = 'Plantilla no encontrada';

const toTemplate = (row: TemplateRow): EmailTemplate => ({
  id: row.id,
  name: row.name,
  subject: row.subject,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
});

export class TemplatesService {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly contacts: RecipientContacts,
  ) {}

  async list(userId: string): Promise<EmailTemplate[]> {
    return (await this.templates.list(userId)).map(toTemplate);
  }

  async create(userId: string, body: EmailTemplateBody): Promise<EmailTemplate> {
    return toTemplate(await this.templates.insert(userId, body));
  }

  async update(userId: string, id: string, body: EmailTemplateBody): Promise<EmailTemplate> {
    const row = await this.templates.update(userId, id, body);
    if (!row) throw notFound(NOT_FOUND);
    return toTemplate(row);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.templates.delete(userId, id))) throw notFound(NOT_FOUND);
  }

  /**
   * The template with the assistant's variables filled for the contact whose address is `to` (asked of the
   * contacts service on the owner's behalf). No contact, or contacts unreachable: the template as written.
   */
  async fill(userId: string, id: string, to: string | undefined, scopes?: readonly PersonalTokenScope[]): Promise<FilledTemplate> {
    const row = await this.templates.find(userId, id);
    if (!row) throw notFound(NOT_FOUND);
    const contact = to?.trim() ? await this.contacts.byEmail(userId, to.trim(), scopes) : undefined;
    if (!contact) return { subject: row.subject, body: row.body, contactFound: false };
    const values = contactValues(contact);
    return { subject: resolveVariables(row.subject, values).text, body: resolveVariables(row.body, values).text, contactFound: true };
  }
}
