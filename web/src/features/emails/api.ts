import type {
  EmailDetail,
  EmailIntegration,
  EmailList,
  EmailPreview,
  EmailSent,
  EmailTemplate,
  ImapIntegrationBody,
  MailFolder,
  OAuthProvidersStatus,
  OutgoingAttachment,
} from '@asistente/contracts';
import { getFile, getJson, sendDelete, sendJson } from '../../lib/http';

export type { EmailDetail, EmailIntegration, EmailList, EmailPreview, EmailTemplate, ImapIntegrationBody, MailFolder, OAuthProvidersStatus, OutgoingAttachment };

/** Spec: the email screen asks for 50 at a time. */
export const SCREEN_PAGE_SIZE = 50;
export const TEMPLATES_SHOWN = 5;
export const PREVIEW_LENGTH = 50;

export const listEmails = (folder: MailFolder, search: string, signal?: AbortSignal) =>
  getJson<EmailList>('emails', {
    searchParams: { folder, limit: SCREEN_PAGE_SIZE, page: 1, ...(search.trim() ? { search: search.trim() } : {}) },
    ...(signal ? { signal } : {}),
  });

export const getEmail = (id: string, images: boolean) => getJson<EmailDetail>(`emails/${id}`, images ? { searchParams: { images: '1' } } : {});
export const markRead = (id: string) => sendJson<{ success: true }>('put', `emails/${id}/read`, {});
export const removeEmail = async (id: string) => {
  await sendDelete(`emails/${id}`);
};
export const downloadAttachment = (id: string, attachmentId: string) => getFile(`emails/${id}/attachments/${attachmentId}`);

export interface ComposeBody {
  to: string;
  cc?: string;
  subject: string;
  body: string;
  attachments?: OutgoingAttachment[];
  track: boolean;
  /** The owner confirmed sending with variables nothing fills. */
  allowUnresolved?: boolean;
  accountId?: string;
  draftId?: string;
}
/** The server's answer when `{variables}` would stay unfilled: nothing was sent, the owner is asked. */
export const UNRESOLVED_VARIABLES = 'EMAIL_UNRESOLVED_VARIABLES';
/** The server sends a mail once per key: a retry after a lost answer gets the first send's result. */
const once = (idempotencyKey: string) => ({ headers: { 'Idempotency-Key': idempotencyKey } });
export const sendEmail = (body: ComposeBody, idempotencyKey: string) => sendJson<EmailSent>('post', 'emails/send', body, once(idempotencyKey));
export const saveDraft = (body: { to: string; cc: string; subject: string; body: string; accountId?: string; draftId?: string }) =>
  sendJson<{ success: true; id: string }>('post', 'emails/drafts', body);
export const replyEmail = (id: string, body: { body: string; all: boolean; track: boolean }, idempotencyKey: string) =>
  sendJson<EmailSent>('post', `emails/${id}/reply`, body, once(idempotencyKey));
export const forwardEmail = (id: string, body: { to: string; body: string; track: boolean }, idempotencyKey: string) =>
  sendJson<EmailSent>('post', `emails/${id}/forward`, body, once(idempotencyKey));

export const listTemplates = () => getJson<EmailTemplate[]>('emails/templates');
export const createTemplate = (body: { name: string; subject: string; body: string }) => sendJson<EmailTemplate>('post', 'emails/templates', body);

/** What the first recipient would get now (the send fills each recipient again). */
export const previewEmail = (body: { to: string; subject: string; body: string }, signal: AbortSignal) =>
  sendJson<EmailPreview>('post', 'emails/preview', body, { signal });

export const listIntegrations = () => getJson<EmailIntegration[]>('emails/integrations');
export const providerStatus = () => getJson<OAuthProvidersStatus>('emails/integrations/providers');
export const testImap = (body: ImapIntegrationBody) => sendJson<{ success: true }>('post', 'emails/integrations/test', body);
export const connectImap = (body: ImapIntegrationBody) => sendJson<EmailIntegration>('post', 'emails/integrations', body);
export const connectUrl = (provider: 'gmail' | 'outlook') => getJson<{ url: string }>(`emails/integrations/${provider}/connect`);
export const setTracking = (id: string, tracking: boolean) => sendJson<EmailIntegration>('put', `emails/integrations/${id}/tracking`, { tracking });
export const disconnect = (id: string) => sendDelete(`emails/integrations/${id}`);
