export type {
  Contact,
  ContactBody as ContactInput,
  ContactList as ContactPage,
  ContactStats,
  ImportReport,
} from '@asistente/contracts';

export interface ContactQuery {
  page: number;
  search: string;
  tag: string;
  /** `<field>-<direction>`, e.g. `name-asc` (see use-list-url). */
  order?: string;
}

export const PAGE_SIZE = 10;

export function fullName(contact: { firstName: string; lastName: string }): string {
  return `${contact.firstName} ${contact.lastName}`.trim();
}
