import type { ConversationDetail } from '@asistente/contracts';
import type { ServiceCaller } from '@asistente/kit';

export type CustomerContact = NonNullable<ConversationDetail['contact']>;

/** Where the inbox finds a customer's contact by their handle (the contacts service, through its adapter). */
export interface CustomerContacts {
  ofHandle(caller: ServiceCaller, handle: string): Promise<CustomerContact | null>;
}
