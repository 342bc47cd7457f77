import type {
  ConversationDetail,
  ConversationEntries,
  ConversationEntry,
  ConversationMentionList,
  ConversationPresence,
  ConversationSendConflict,
  InboxConversation,
  InboxCounts,
  InboxList,
  InboxMemberList,
  InboxSettings,
  PresenceBody,
  UpdateConversationBody,
} from '@asistente/contracts';
import { getJson, sendJson } from '../../lib/http';

export type { ConversationDetail, ConversationEntry, ConversationPresence, InboxConversation, InboxCounts, InboxSettings };
export type ConversationContact = NonNullable<ConversationDetail['contact']>;
export type PresentMember = ConversationPresence['viewing'][number];
export type InboxMember = InboxMemberList['data'][number];
export type Mention = ConversationMentionList['data'][number];

/** The tabs: whose conversations the list shows. */
export type AssigneeTab = 'me' | 'none' | 'any';
export type StatusFilter = InboxConversation['status'] | 'any';

export interface InboxFilter {
  assignee: AssigneeTab;
  status: StatusFilter;
  q: string;
}

const path = (id: string) => `conversations/${encodeURIComponent(id)}`;

export const listConversations = (filter: InboxFilter, page: number, limit: number) =>
  getJson<InboxList>('conversations', {
    searchParams: { assignee: filter.assignee, status: filter.status, page, limit, ...(filter.q ? { q: filter.q } : {}) },
  });

export const getCounts = (status: StatusFilter) => getJson<InboxCounts>('conversations/counts', { searchParams: { status } });

/** Opening a conversation marks it read on the server. */
export const getConversation = (id: string) => getJson<ConversationDetail>(path(id));

export const getOlderEntries = (id: string, before: string, limit: number) =>
  getJson<ConversationEntries>(`${path(id)}/messages`, { searchParams: { before, limit } });

/**
 * The server sends once per key: a retry of the same attempt (its answer lost) reuses the key and gets the
 * first send's entry instead of a second message to the customer.
 */
export const sendReply = (id: string, text: string, idempotencyKey: string, force = false) =>
  sendJson<ConversationEntry>('post', `${path(id)}/messages`, force ? { text, force } : { text }, { headers: { 'Idempotency-Key': idempotencyKey } });

export const addNote = (id: string, text: string) => sendJson<ConversationEntry>('post', `${path(id)}/notes`, { text });

/** The server gives up on the assistant after 60 s and says so in Spanish: the screen waits a little longer for that answer. */
const SUGGESTION_WAIT_MS = 70_000;

/** The assistant drafts an answer to the customer: a private entry of the thread, never sent by itself. */
export const suggestReply = (id: string) => sendJson<ConversationEntry>('post', `${path(id)}/suggestions`, {}, { timeout: SUGGESTION_WAIT_MS });

export const updateConversation = (id: string, body: UpdateConversationBody) => sendJson<InboxConversation>('patch', path(id), body);

export const getMembers = () => getJson<InboxMemberList>('conversations/members').then((answer) => answer.data);

export const setAvailability = (available: boolean) => sendJson<{ available: boolean }>('put', 'conversations/availability', { available });

/**
 * «I am looking at this conversation» (and whether I type): renewed while the thread is open; answers who is
 * there now. `keepalive` for the goodbye sent as the page goes away.
 */
export const announcePresence = (id: string, body: PresenceBody, keepalive = false) =>
  sendJson<ConversationPresence>('post', `${path(id)}/presence`, body, keepalive ? { keepalive } : {});

/** Server-Sent Events: `ready`, `conversation` {conversationId} when one changed, `presence` (a ConversationPresence). */
export const INBOX_STREAM_URL = '/api/conversations/stream';

export const getMentions = () => getJson<ConversationMentionList>('conversations/mentions').then((answer) => answer.data);

/** The 409 of a stale send: someone else answered after the sender last read the thread. */
export const ANSWERED_MEANWHILE = 'ANSWERED_MEANWHILE';
export type SendConflict = ConversationSendConflict;
