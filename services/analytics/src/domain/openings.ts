import type { DomainEvent } from '@asistente/contracts';

/** The inbox's events about one conversation (packages/contracts/src/events.ts). */
export type ConversationEvent = Extract<DomainEvent, { type: `conversation.${string}` }>;

type Author = Extract<ConversationEvent, { type: 'conversation.message.sent' }>['data']['author'];

/** Who the figures credit an answer to: a member's id, or the assistant (its answers and the keyword rules'). */
export const ASSISTANT = 'assistant';

/** One time a conversation was open: from the customer's message that opened it until resolved. */
export interface Opening {
  conversationId: string;
  openedBy: string;
  openedAt: Date;
  firstAnswerAt: Date | null;
  firstAnswerAuthor: Author | null;
  /** The member who gave the first answer (null when the assistant, a keyword rule or the phone did). */
  firstAnswerMember: string | null;
  /** Assigned when it was resolved; while open, now. */
  assigneeId: string | null;
  resolvedAt: Date | null;
  resolvedBy: string | null;
}

export interface Answerer {
  conversationId: string;
  /** A member's id, or ASSISTANT. */
  answerer: string;
  lastAnsweredAt: Date;
}

export interface Followed {
  openings: Opening[];
  answerers: Answerer[];
}

export function isConversationEvent(event: DomainEvent): event is ConversationEvent {
  return event.type.startsWith('conversation.');
}

const isAutomatic = (author: Author) => author === 'assistant' || author === 'keyword';

/**
 * Whether the conversation was open when the inbox created it. The inbox creates one open for a live message
 * and resolved for a WhatsApp history sync; its first customer message says which (`live`). A conversation a
 * member started by writing first is open. Otherwise (a history sync that began with the business's own message)
 * the evidence tells: the first status change says what it was before; without one, what follows a live message
 * (the assignment rule picking someone, or an automatic answer: both follow live messages only).
 */
function createdOpen(events: readonly ConversationEvent[]): boolean {
  const first = events[0];
  if (first?.type === 'conversation.message.received') return first.data.live;
  if (first?.type === 'conversation.message.sent' && first.data.author === 'member') return true;
  const firstChange = events.find((e) => e.type === 'conversation.status_changed');
  if (firstChange) return firstChange.data.from !== 'resolved';
  return events.some(
    (e) =>
      (e.type === 'conversation.message.sent' && isAutomatic(e.data.author)) ||
      (e.type === 'conversation.assigned' && e.data.by === 'rule' && e.data.assigneeId !== null),
  );
}

/**
 * A conversation's openings and answerers, from all of its events in order (occurredAt, then id): a pure
 * function of the history, so the consumer (for each conversation a batch touches) and the rebuild derive the
 * same rows whatever order the events arrived in.
 *
 * - An opening starts at a customer's message while the conversation is open and none is under way, or when
 *   a customer's message reopens it (status to 'open' with no member acting; a member reopening by hand starts
 *   nothing: the customer's next message does). 'pending' does not end it: only 'resolved' does.
 * - Its first answer is the first message sent after it, whoever sent it: a member (credited to the envelope's
 *   actorId), the assistant, a keyword rule or the phone. Later answers in the same opening are not first ones.
 * - Every answer by a member or the assistant (keyword rules included) counts its conversation as handled by
 *   them; the phone's do not (they cannot be told from a history sync's).
 */
export function followConversation(conversationId: string, events: readonly ConversationEvent[]): Followed {
  const openings: Opening[] = [];
  const lastAnswer = new Map<string, Date>();
  let status: 'open' | 'pending' | 'resolved' = createdOpen(events) ? 'open' : 'resolved';
  let assignee: string | null = null;
  let current: Opening | null = null;

  const open = (event: ConversationEvent): Opening => {
    const opening: Opening = {
      conversationId,
      openedBy: event.id,
      openedAt: new Date(event.occurredAt),
      firstAnswerAt: null,
      firstAnswerAuthor: null,
      firstAnswerMember: null,
      assigneeId: assignee,
      resolvedAt: null,
      resolvedBy: null,
    };
    openings.push(opening);
    return opening;
  };

  for (const event of events) {
    const at = new Date(event.occurredAt);
    switch (event.type) {
      case 'conversation.message.received':
        if (!current && status === 'open' && event.data.live) current = open(event);
        break;
      case 'conversation.status_changed':
        status = event.data.to;
        if (status === 'resolved' && current) {
          current.resolvedAt = at;
          current.resolvedBy = event.actorId ?? null;
          current = null;
        } else if (status === 'open' && !current && !event.actorId) current = open(event);
        break;
      case 'conversation.assigned':
        assignee = event.data.assigneeId;
        if (current) current.assigneeId = assignee;
        break;
      case 'conversation.message.sent': {
        const { author } = event.data;
        const member = author === 'member' ? (event.actorId ?? null) : null;
        if (current && !current.firstAnswerAt) {
          current.firstAnswerAt = at;
          current.firstAnswerAuthor = author;
          current.firstAnswerMember = member;
        }
        const answerer = isAutomatic(author) ? ASSISTANT : member;
        const last = answerer ? lastAnswer.get(answerer) : undefined;
        if (answerer && (!last || last < at)) lastAnswer.set(answerer, at);
        break;
      }
    }
  }
  return { openings, answerers: [...lastAnswer].map(([answerer, lastAnsweredAt]) => ({ conversationId, answerer, lastAnsweredAt })) };
}
