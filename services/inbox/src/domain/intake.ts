import { randomUUID } from 'node:crypto';
import { CONVERSATION_PREVIEW_MAX, type ConversationChannel, type EventData, type EventType } from '@asistente/contracts';
import { createEvent, type EventEnvelope, type Outbox, type Sql, type TransactionSql } from '@asistente/kit';
import { pickAssignee } from './assignment-rule.js';
import type { ChannelMessage, MessageOrigin } from './channel.js';
import type { ConversationRow, ConversationsRepository } from './conversations.repository.js';
import type { EntriesRepository, EntryRow } from './entries.repository.js';
import type { InboxSettingsRepository } from './inbox-settings.repository.js';
import type { LiveSignals } from './live-signals.js';
import type { Member, MembersDirectory } from './members-directory.js';

export interface IntakeDeps {
  sql: Sql;
  outbox: Outbox;
  conversations: ConversationsRepository;
  entries: EntriesRepository;
  settings: InboxSettingsRepository;
  members: Pick<MembersDirectory, 'list'>;
  signals: LiveSignals;
}

export interface Recorded {
  conversation: ConversationRow;
  entry: EntryRow;
}

type Events = EventEnvelope[];

/**
 * Where every channel's messages enter the inbox, whichever way they come (the channel's events, the inbox's
 * own sends): the customer's conversation is found or created, the message stored once, and what it means
 * applied in the same transaction as its events. A live customer message opens a conversation (a resolved or
 * pending one reopens) and has the workspace's rule assign it; a member's or the phone's answer pauses the
 * assistant there. A history sync only fills the thread: its conversations are created resolved.
 */
export class Intake {
  constructor(private readonly deps: IntakeDeps) {}

  async record(workspaceId: string, channelName: string, message: ChannelMessage, origin: MessageOrigin): Promise<Recorded> {
    const { sql, conversations, settings } = this.deps;
    // Every channel the inbox has registered is recorded under its name. The contracts list the product's
    // channels (the API's filters, the events, the webhooks and the screen's labels read that list); a channel
    // registered but not listed there (a test's in-memory one) still lists and answers as itself, and the
    // event consumers that check the catalogue leave its events aside.
    const channel = channelName as ConversationChannel;
    const incoming = message.direction === 'incoming';
    const opens = origin.live && incoming;
    // Who the rule may pick and the author's name are auth's, asked before the transaction holds any lock.
    const existing = await conversations.findByHandle(workspaceId, channel, message.handle);
    const mayAssign = opens && (!existing || existing.status !== 'open') && (await settings.get(workspaceId)).assignment !== 'none';
    const members = mayAssign || origin.authorId ? await this.deps.members.list(workspaceId) : [];
    const authorName = members.find((m) => m.userId === origin.authorId)?.name ?? null;
    const events: Events = [];
    const recorded = await sql.begin(async (tx) => {
      const { row, created } = await conversations.upsert(tx, {
        id: randomUUID(),
        workspaceId,
        channel,
        handle: message.handle,
        name: incoming ? message.name : null,
        status: origin.live ? 'open' : 'resolved',
      });
      const entry = await this.deps.entries.insert(tx, {
        id: randomUUID(),
        workspaceId,
        conversationId: row.id,
        kind: 'message',
        direction: message.direction,
        author: origin.author,
        authorId: origin.authorId,
        authorName,
        body: message.text,
        channelMessageId: message.id,
        at: message.at,
      });
      if (!entry) return { conversation: row, entry: (await this.deps.entries.byChannelMessage(row.id, message.id, tx))!, fresh: false };
      await conversations.touch(tx, row.id, message.at, message.text.slice(0, CONVERSATION_PREVIEW_MAX), { incoming, unread: opens });
      const data = { conversationId: row.id, entryId: entry.id, channel };
      if (incoming) {
        const received = { ...data, live: origin.live, direct: message.direct, autoAnswered: origin.autoAnswered === true };
        events.push(this.event('conversation.message.received', workspaceId, received));
      }
      else events.push(this.event('conversation.message.sent', workspaceId, { ...data, author: sentBy(origin.author) }, origin.authorId));
      const reopened = opens && !created && row.status !== 'open';
      if (reopened) {
        await conversations.setStatus(tx, row.id, 'open');
        events.push(this.event('conversation.status_changed', workspaceId, { conversationId: row.id, from: row.status, to: 'open' }));
      }
      if ((created && opens) || reopened) await this.assignByRule(tx, workspaceId, row, members, events);
      if (created && !incoming && origin.authorId) await this.assignTo(tx, workspaceId, row, origin.authorId, events);
      if (!incoming && (origin.author === 'member' || origin.author === 'phone') && row.assistantActive) {
        await conversations.setAssistantActive(tx, row.id, false);
      }
      await this.deps.outbox.append(tx, events);
      return { conversation: (await conversations.find(workspaceId, row.id, tx))!, entry, fresh: true };
    });
    if (recorded.fresh) this.deps.signals.changed(workspaceId, recorded.conversation.id);
    return { conversation: recorded.conversation, entry: recorded.entry };
  }

  /** The workspace's rule, under its turn's lock: a reopened conversation keeps an assignee who is still available. */
  private async assignByRule(tx: TransactionSql, workspaceId: string, row: ConversationRow, members: Member[], events: Events): Promise<void> {
    const turn = await this.deps.settings.lockTurn(tx, workspaceId);
    const away = await this.deps.settings.away(workspaceId, tx);
    const available = members.map((m) => m.userId).filter((id) => !away.has(id));
    if (row.assigneeId && available.includes(row.assigneeId)) return;
    const open = turn.assignment === 'fewest_open' ? await this.deps.conversations.openPerMember(workspaceId, tx) : new Map<string, number>();
    const assignee = pickAssignee(turn.assignment, available, turn.lastAssignedId, open);
    if (!assignee || assignee === row.assigneeId) return;
    await this.deps.settings.moveTurn(tx, workspaceId, assignee);
    await this.deps.conversations.setAssignee(tx, row.id, assignee);
    await this.deps.settings.logAssignment(tx, { id: randomUUID(), workspaceId, conversationId: row.id, assigneeId: assignee, assignedBy: null });
    events.push(this.event('conversation.assigned', workspaceId, { conversationId: row.id, assigneeId: assignee, by: 'rule' }));
  }

  /** A conversation a member started is theirs. */
  private async assignTo(tx: TransactionSql, workspaceId: string, row: ConversationRow, memberId: string, events: Events): Promise<void> {
    await this.deps.conversations.setAssignee(tx, row.id, memberId);
    await this.deps.settings.logAssignment(tx, { id: randomUUID(), workspaceId, conversationId: row.id, assigneeId: memberId, assignedBy: memberId });
    events.push(this.event('conversation.assigned', workspaceId, { conversationId: row.id, assigneeId: memberId, by: 'member' }, memberId));
  }

  private event<T extends EventType>(type: T, workspaceId: string, data: EventData<T>, actorId?: string | null): EventEnvelope {
    const event = createEvent(type, workspaceId, data);
    return actorId ? { ...event, actorId } : event;
  }
}

function sentBy(author: MessageOrigin['author']): 'member' | 'assistant' | 'keyword' | 'phone' {
  return author === 'customer' ? 'phone' : author;
}
