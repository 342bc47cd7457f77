import { createHash, randomUUID } from 'node:crypto';
import {
  CONVERSATION_MESSAGES_PAGE_SIZE,
  type ConversationDetail,
  type ConversationEntries,
  type ConversationEntry,
  type ConversationExcerpt,
  type ConversationExcerptQuery,
  type ConversationMessagesQuery,
  type InboxCounts,
  type InboxList,
  type InboxQuery,
  type InboxConversation,
  type UpdateConversationBody,
} from '@asistente/contracts';
import { AppError, badRequest, callerOf, createEvent, currentMemberId, notFound, type ActingMember, type EventEnvelope, type Outbox, type Sql } from '@asistente/kit';
import type { Channel } from './channel.js';
import { CONVERSATION_NOT_FOUND } from './conversation-errors.js';
import type { CustomerContacts } from './customer-contact.js';
import { toConversation, type ConversationsRepository } from './conversations.repository.js';
import { toEntry, type EntriesRepository } from './entries.repository.js';
import type { InboxSettingsRepository } from './inbox-settings.repository.js';
import type { Intake } from './intake.js';
import type { MembersDirectory } from './members-directory.js';
import type { LiveSignals } from './live-signals.js';
import type { Mentions } from './mentions.js';
import type { Suggestions } from './suggestions.js';

const NOT_A_MEMBER = 'Esa persona no es miembro del espacio de trabajo';
const ONLY_ASSIGNEE = 'Solo la persona asignada puede responder en esta conversación';
const EXCERPT_ASKS_ONE = 'Indica los mensajes por su id (ids) o cuántos de los últimos (latest), no ambos';
const ASSISTANT_ONLY = 'Solo el asistente responde por esta vía';
const ASSISTANT_PAUSED = 'Una persona del equipo atiende esta conversación: el asistente no responde';

export interface ConversationsDeps {
  sql: Sql;
  outbox: Outbox;
  conversations: ConversationsRepository;
  entries: EntriesRepository;
  settings: InboxSettingsRepository;
  members: MembersDirectory;
  intake: Intake;
  mentions: Mentions;
  channels: ReadonlyMap<string, Channel>;
  signals: LiveSignals;
  contacts: CustomerContacts;
  suggestions: Pick<Suggestions, 'afterNote'>;
}

/** A send that would answer what someone else already answered since the sender last read the thread. */
export class StaleSend extends AppError {
  constructor(readonly answer: ConversationEntry) {
    super(409, 'ANSWERED_MEANWHILE', `${answer.authorName ?? 'Otra persona'} ya respondió en esta conversación después de tu última lectura`);
  }
}

/** The inbox as members work it: lists, threads, answers, notes, assignment and status. */
export class ConversationsService {
  constructor(private readonly deps: ConversationsDeps) {}

  async list(member: ActingMember, query: InboxQuery): Promise<InboxList> {
    const { rows, total } = await this.deps.conversations.list(
      { workspaceId: member.workspaceId, memberId: member.id, assignee: query.assignee, status: query.status, channel: query.channel, q: query.q },
      query.limit,
      (query.page - 1) * query.limit,
    );
    return { data: rows.map(toConversation), pagination: { total, page: query.page, limit: query.limit } };
  }

  counts(member: ActingMember, status: InboxQuery['status']): Promise<InboxCounts> {
    return this.deps.conversations.counts(member.workspaceId, member.id, status);
  }

  async lookup(workspaceId: string, channel: string, handle: string): Promise<InboxConversation> {
    const row = await this.deps.conversations.findByHandle(workspaceId, channel, handle);
    if (!row) throw notFound(CONVERSATION_NOT_FOUND);
    return toConversation(row);
  }

  /** The conversation with its latest entries; opening it marks it read, and what the member saw there seen. */
  async detail(member: ActingMember, id: string): Promise<ConversationDetail> {
    const row = await this.found(member.workspaceId, id);
    const [page, contact] = await Promise.all([this.read(member, id, CONVERSATION_MESSAGES_PAGE_SIZE), this.deps.contacts.of(callerOf(member), row)]);
    if (row.unread > 0) {
      await this.deps.conversations.markRead(id);
      // The other members' badges and tab titles count it no more.
      this.deps.signals.changed(member.workspaceId, id);
    }
    await this.deps.mentions.seen(member.workspaceId, member.id, id);
    const contactId = contact?.id ?? null;
    if (contactId !== row.contactId) await this.deps.conversations.setContact(id, contactId);
    return { ...toConversation({ ...row, unread: 0, contactId }), contact, messages: page.data, hasMore: page.hasMore };
  }

  async entries(member: ActingMember, id: string, query: ConversationMessagesQuery): Promise<ConversationEntries> {
    await this.found(member.workspaceId, id);
    return this.read(member, id, query.limit, query.before);
  }

  /**
   * A member's answer, sent as them through the conversation's channel. The Idempotency-Key becomes the
   * channel's client id, so a retried request answers the message already sent instead of sending twice.
   */
  async send(member: ActingMember, id: string, text: string, options: { force?: boolean | undefined; idempotencyKey?: string | undefined }): Promise<ConversationEntry> {
    const row = await this.found(member.workspaceId, id);
    const settings = await this.deps.settings.get(member.workspaceId);
    if (settings.onlyAssigneeSends && row.assigneeId && row.assigneeId !== member.id) throw new AppError(403, 'ONLY_ASSIGNEE', ONLY_ASSIGNEE);
    if (!options.force) {
      const answer = await this.deps.entries.answeredSince(id, member.id, await this.deps.entries.seenSeq(id, member.id));
      if (answer) throw new StaleSend(toEntry(answer));
    }
    const channel = this.channelOf(row.channel);
    const clientId = options.idempotencyKey ? keyedId(member.workspaceId, id, options.idempotencyKey) : randomUUID();
    const sent = await channel.send(callerOf(member), row.handle, text, clientId);
    const { entry } = await this.deps.intake.record(member.workspaceId, channel.name, sent, { author: 'member', authorId: member.id, live: true });
    await this.deps.entries.markSeen(member.workspaceId, id, member.id, entry.seq);
    return toEntry(entry);
  }

  /** Entries by id, with the conversation as it is now: what the assistant reads before answering. Nothing is marked read. */
  async excerpt(workspaceId: string, id: string, query: ConversationExcerptQuery): Promise<ConversationExcerpt> {
    if ((query.ids === undefined) === (query.latest === undefined)) throw badRequest(EXCERPT_ASKS_ONE);
    const row = await this.found(workspaceId, id);
    const entries = query.ids ? await this.deps.entries.byIds(id, [...new Set(query.ids.split(','))]) : (await this.deps.entries.page(id, query.latest!)).reverse();
    return { conversation: toConversation(row), entries: entries.map(toEntry) };
  }

  /**
   * The assistant's answer, through the conversation's channel: the workspace's own work, never a member's
   * request. Refused once a person has taken the conversation over, checked here at the send, so an answer the
   * model took seconds to write never goes out over a colleague's. `answerId` names the send, as a member's key.
   */
  async answerAsAssistant(workspaceId: string, id: string, text: string, answerId: string): Promise<ConversationEntry> {
    if (currentMemberId() !== undefined) throw new AppError(403, 'ASSISTANT_ONLY', ASSISTANT_ONLY);
    const row = await this.found(workspaceId, id);
    if (!row.assistantActive) throw new AppError(409, 'ASSISTANT_PAUSED', ASSISTANT_PAUSED);
    const channel = this.channelOf(row.channel);
    const sent = await channel.send(workspaceId, row.handle, text, keyedId(workspaceId, id, answerId), 'assistant');
    const { entry } = await this.deps.intake.record(workspaceId, channel.name, sent, { author: 'assistant', authorId: null, live: true });
    return toEntry(entry);
  }

  /** A note only members see; `@Nombre` in it notifies that member, `@Asistente` asks the assistant for a suggestion. */
  async note(member: ActingMember, id: string, text: string): Promise<ConversationEntry> {
    await this.found(member.workspaceId, id);
    const members = await this.deps.members.list(member.workspaceId);
    const authorName = members.find((m) => m.userId === member.id)?.name ?? null;
    const entry = await this.deps.mentions.addNote({ workspaceId: member.workspaceId, conversationId: id, authorId: member.id, authorName, text, members });
    this.deps.signals.changed(member.workspaceId, id);
    this.deps.suggestions.afterNote(member, id, text);
    return toEntry(entry);
  }

  /**
   * Status, assignee and the assistant, as a member changes them. A member assigning someone pauses the
   * assistant there; resolving or handing it back ("Devolver al asistente") turns it on again.
   */
  async update(member: ActingMember, id: string, body: UpdateConversationBody): Promise<InboxConversation> {
    const { sql, conversations, settings } = this.deps;
    if (body.assigneeId) {
      const members = await this.deps.members.list(member.workspaceId);
      if (!members.some((m) => m.userId === body.assigneeId)) throw new AppError(400, 'NOT_A_MEMBER', NOT_A_MEMBER);
    }
    const events: EventEnvelope[] = [];
    await sql.begin(async (tx) => {
      const row = await conversations.lock(tx, member.workspaceId, id);
      if (!row) throw notFound(CONVERSATION_NOT_FOUND);
      if (body.status && body.status !== row.status) {
        await conversations.setStatus(tx, id, body.status);
        events.push(createEvent('conversation.status_changed', member.workspaceId, { conversationId: id, from: row.status, to: body.status }));
      }
      if (body.assigneeId !== undefined && body.assigneeId !== row.assigneeId) {
        await conversations.setAssignee(tx, id, body.assigneeId);
        await settings.logAssignment(tx, { id: randomUUID(), workspaceId: member.workspaceId, conversationId: id, assigneeId: body.assigneeId, assignedBy: member.id });
        events.push(createEvent('conversation.assigned', member.workspaceId, { conversationId: id, assigneeId: body.assigneeId, by: 'member' }));
      }
      // Resolved, the assistant answers again whoever had taken over; a person assigned takes over.
      const assistant = body.assistantActive ?? (body.status === 'resolved' ? true : body.assigneeId ? false : undefined);
      if (assistant !== undefined && assistant !== row.assistantActive) await conversations.setAssistantActive(tx, id, assistant);
      await this.deps.outbox.append(tx, events);
    });
    this.deps.signals.changed(member.workspaceId, id);
    return toConversation((await conversations.find(member.workspaceId, id))!);
  }

  private async read(member: ActingMember, id: string, limit: number, before?: string): Promise<ConversationEntries> {
    const rows = await this.deps.entries.page(id, limit + 1, before);
    const page = rows.slice(0, limit);
    const newest = page[0];
    if (newest) await this.deps.entries.markSeen(member.workspaceId, id, member.id, newest.seq);
    return { data: page.reverse().map(toEntry), hasMore: rows.length > limit };
  }

  private async found(workspaceId: string, id: string) {
    const row = await this.deps.conversations.find(workspaceId, id);
    if (!row) throw notFound(CONVERSATION_NOT_FOUND);
    return row;
  }

  private channelOf(name: string): Channel {
    const channel = this.deps.channels.get(name);
    if (!channel) throw new AppError(503, 'CHANNEL_UNAVAILABLE', 'Este canal no está disponible');
    return channel;
  }
}

/** The same key for the same conversation always names the same send. */
function keyedId(workspaceId: string, conversationId: string, key: string): string {
  const hex = createHash('sha256').update(`${workspaceId}\n${conversationId}\n${key}`).digest('hex');
  // Shaped as a version-4 UUID (the channel's client id is one).
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
