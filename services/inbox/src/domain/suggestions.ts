import { randomUUID } from 'node:crypto';
import { CONVERSATION_TEXT_MAX, SUGGESTION_CONTEXT_MESSAGES, type AiSuggestionLine, type ConversationEntry, type EntryAuthor } from '@asistente/contracts';
import { AppError, callerOf, notFound, type ActingMember, type Logger, type Sql } from '@asistente/kit';
import type { ConversationsRepository } from './conversations.repository.js';
import { CONVERSATION_NOT_FOUND } from './conversation-errors.js';
import type { CustomerContacts } from './customer-contact.js';
import { toEntry, type EntriesRepository } from './entries.repository.js';
import type { LiveSignals } from './live-signals.js';
import { mentioned } from './mentions.js';
import type { ReplyDrafter } from './reply-drafter.js';

export interface SuggestionsDeps {
  sql: Sql;
  conversations: ConversationsRepository;
  entries: EntriesRepository;
  contacts: CustomerContacts;
  drafter: ReplyDrafter;
  signals: LiveSignals;
  log: Pick<Logger, 'warn'>;
}

/** Named in a note as a member would be (`@Asistente`, `@asistente`, `@Asístente`), never as part of a longer word. */
const ASSISTANT = { userId: 'assistant', name: 'Asistente', role: 'agent' as const };

export function asksAssistant(text: string): boolean {
  return mentioned(text, [ASSISTANT]).length > 0;
}

/** Who said each line, as the assistant reads the thread: the number's own phone is the team, a keyword rule the assistant. */
const SPEAKER: Record<EntryAuthor, AiSuggestionLine['author']> = {
  customer: 'customer',
  member: 'member',
  phone: 'member',
  assistant: 'assistant',
  keyword: 'assistant',
};

const clip = (text: string) => text.slice(0, CONVERSATION_TEXT_MAX);

const NO_DRAFT = 'No pude preparar la sugerencia';
const NO_DRAFT_NOW = 'el asistente no está disponible en este momento. Inténtalo de nuevo con «Sugerir respuesta»';

/**
 * The assistant's suggested answers: drafted from the thread's latest messages by the ai service and kept in the
 * thread as an entry of their own (author 'assistant'), which only members see and nothing ever sends. A member
 * takes one into the composer, edits it and sends it as their own answer.
 */
export class Suggestions {
  constructor(private readonly deps: SuggestionsDeps) {}

  async suggest(member: ActingMember, conversationId: string, instruction: string | undefined): Promise<ConversationEntry> {
    const row = await this.deps.conversations.find(member.workspaceId, conversationId);
    if (!row) throw notFound(CONVERSATION_NOT_FOUND);
    const caller = callerOf(member);
    // The contact as it is matched now (as opening the thread does), so a contact added since is the one bound.
    const [messages, contact] = await Promise.all([
      this.deps.entries.lastMessages(conversationId, SUGGESTION_CONTEXT_MESSAGES),
      this.deps.contacts.of(caller, row),
    ]);
    const text = clip(
      await this.deps.drafter.draft(caller, {
        conversationId,
        channel: row.channel,
        handle: row.handle,
        contactId: contact?.id ?? null,
        lines: messages.map((m) => ({ author: SPEAKER[m.author], text: clip(m.body) })),
        instruction: instruction?.trim() || undefined,
      }),
    );
    const entry = await this.deps.sql.begin((tx) =>
      this.deps.entries.insert(tx, {
        id: randomUUID(),
        workspaceId: member.workspaceId,
        conversationId,
        kind: 'suggestion',
        direction: null,
        author: 'assistant',
        authorId: null,
        authorName: null,
        body: text,
        channelMessageId: null,
        at: new Date(),
      }),
    );
    this.deps.signals.changed(member.workspaceId, conversationId);
    return toEntry(entry!);
  }

  /**
   * A note that names @Asistente asks for a suggestion with its text as the instruction, once the note is kept:
   * the note's answer does not wait for the model, and the draft reaches the thread's open screens when ready.
   * A failure (no key, the model failing) is answered in the thread by the assistant's own private note saying
   * why, so whoever asked is not left waiting for a draft that will not come.
   */
  afterNote(member: ActingMember, conversationId: string, text: string): void {
    if (!asksAssistant(text)) return;
    this.suggest(member, conversationId, text).catch(async (error: unknown) => {
      const reason = error instanceof AppError ? error.code : error instanceof Error ? error.name : 'unknown';
      this.deps.log.warn({ workspaceId: member.workspaceId, conversationId, reason }, 'the suggestion a note asked for failed');
      // The API's own Spanish sentence (no secret ever is one); anything else, in general words.
      const why = error instanceof AppError ? error.message : NO_DRAFT_NOW;
      await this.sayWhy(member.workspaceId, conversationId, `${NO_DRAFT}: ${why}`).catch((failure: unknown) =>
        this.deps.log.warn({ err: failure, workspaceId: member.workspaceId, conversationId }, 'the assistant could not say why it made no suggestion'),
      );
    });
  }

  private async sayWhy(workspaceId: string, conversationId: string, text: string): Promise<void> {
    await this.deps.sql.begin((tx) =>
      this.deps.entries.insert(tx, {
        id: randomUUID(),
        workspaceId,
        conversationId,
        kind: 'note',
        direction: null,
        author: 'assistant',
        authorId: null,
        authorName: ASSISTANT.name,
        body: clip(text),
        channelMessageId: null,
        at: new Date(),
      }),
    );
    this.deps.signals.changed(workspaceId, conversationId);
  }
}
