import type { EmailTemplate, EmailTemplateBody, FilledTemplate } from '@asistente/contracts';
import { notFound, type Logger, type ServiceClient } from '@asistente/kit';
import type { TemplateRow, TemplatesRepository } from './templates.repository.js';

const NOT_FOUND = 'Plantilla no encontrada';

interface ContactLike {
  firstName: string;
  lastName: string;
  email: string | null;
  phone: string | null;
  company: string | null;
}

const toTemplate = (row: TemplateRow): EmailTemplate => ({
  id: row.id,
  name: row.name,
  subject: row.subject,
  body: row.body,
  createdAt: row.createdAt.toISOString(),
});

/** The assistant's variables a contact can fill; others stay as typed for the owner to complete. */
function contactVariables(contact: ContactLike): Record<string, string> {
  const fullName = `${contact.firstName} ${contact.lastName}`.trim();
  return {
    nombre_cliente: fullName,
    nombre: contact.firstName,
    apellido: contact.lastName,
    empresa: contact.company ?? '',
    correo: contact.email ?? '',
    telefono: contact.phone ?? '',
  };
}

export function fillVariables(text: string, values: Record<string, string>): string {
  return text.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole);
}

export class TemplatesService {
  constructor(
    private readonly templates: TemplatesRepository,
    private readonly services: ServiceClient,
    private readonly log: Logger,
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
  async fill(userId: string, id: string, to: string | undefined): Promise<FilledTemplate> {
    const row = await this.templates.find(userId, id);
    if (!row) throw notFound(NOT_FOUND);
    const contact = to?.trim() ? await this.contactByEmail(userId, to.trim()) : undefined;
    if (!contact) return { subject: row.subject, body: row.body, contactFound: false };
    const values = contactVariables(contact);
    return { subject: fillVariables(row.subject, values), body: fillVariables(row.body, values), contactFound: true };
  }

  private async contactByEmail(userId: string, email: string): Promise<ContactLike | undefined> {
    try {
      const page = await this.services.request<{ contacts: ContactLike[] }>('contacts', userId, '/contacts', {
        query: { search: email, limit: 10 },
      });
      return page.contacts.find((c) => c.email?.toLowerCase() === email.toLowerCase());
    } catch (error) {
      this.log.warn({ err: error }, 'contacts unreachable: template not filled');
      return undefined;
    }
  }
}
