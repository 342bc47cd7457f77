import type { ConversationDetail } from '@asistente/contracts';
import type { ServiceCaller } from '@asistente/kit';

export type CustomerContact = NonNullable<ConversationDetail['contact']>;

/** What a web visitor left so the business can reach them. */
export interface VisitorDetails {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** Where the inbox finds a customer's contact (the contacts service, through its adapter). */
export interface CustomerContacts {
  /** By the number a handle is, or the contact the conversation was linked to. */
  of(caller: ServiceCaller, customer: { handle: string; contactId: string | null }): Promise<CustomerContact | null>;
  linkVisitor(caller: ServiceCaller, visitor: VisitorDetails): Promise<string | undefined>;
}
