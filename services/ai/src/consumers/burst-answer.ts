import type { Logger } from '@asistente/kit';
import { AppError, isDatabaseUnavailable, ServiceAnswerError, ServiceCallError } from '@asistente/kit';
import type { AssistantConfigService } from '../domain/assistant-config.service.js';
import type { AssistantRunService } from '../domain/assistant-run.service.js';
import { chatKeyOf } from '../domain/chat-key.js';
import type { ClaimedBurst } from '../domain/chat-bursts.repository.js';
import type { ChatStateService } from '../domain/chat-state.service.js';
import type { InboxConversations } from '../domain/inbox-conversation.js';
import { fitAnswer } from '../domain/answer-fit.js';
import { asksForHuman } from '../domain/prompt.js';
import { customerLines, MAX_LINE_AGE_MS } from './customer-burst.js';

export interface BurstAnswerDeps {
  assistant: AssistantConfigService;
  chats: ChatStateService;
  runner: AssistantRunService;
  inbox: Pick<InboxConversations, 'excerpt' | 'answer'>;
  log: Logger;
}

/**
 * Thrown when a burst could not be answered for a passing reason (a sibling replica gone mid-request, the
 * database connection cut): the burst stays claimed, so another tick answers it once its lease runs out.
 */
class AnswerRetriedLater extends Error {
  constructor(readonly reason: string) {
    super(`automatic answer retried later (${reason})`);
    this.name = 'AnswerRetriedLater';
  }
}

/**
 * One answer to a claimed burst, if the assistant is switched on, the chat is neither paused nor over a cap,
 * and no person of the team has taken the conversation over; a customer asking for a person gets the hand-off
 * phrase and the chat pauses until the owner resumes it. The burst's messages are read from the inbox and the
 * answer goes back through it. Failures are logged (never with the key); a passing one leaves the burst to be
 * answered again (the send is idempotent), any other lets the chat wait for the next message.
 */
export class BurstAnswerer {
  constructor(private readonly deps: BurstAnswerDeps) {}

  async answer(burst: ClaimedBurst): Promise<void> {
    const { userId, conversationId } = burst;
    try {
      const config = await this.deps.assistant.get(userId);
      if (!config.autoReply) return;
      const excerpt = await this.deps.inbox.excerpt(userId, conversationId, burst.messageIds);
      if (!excerpt) return;
      const { conversation } = excerpt;
      if (!conversation.assistantActive) {
        this.deps.log.info({ userId, reason: 'team' }, 'automatic answer withheld');
        return;
      }
      const chat = { channel: conversation.channel, handle: conversation.handle, conversationId };
      const chatKey = chatKeyOf(chat.channel, chat.handle);
      const state = await this.deps.chats.state(userId, chatKey);
      if (state.paused) {
        this.deps.log.info({ userId, reason: state.reason }, 'automatic answer withheld');
        return;
      }
      const lines = customerLines(excerpt.entries, Date.now() - MAX_LINE_AGE_MS);
      if (lines.length === 0) return;
      if (asksForHuman(lines)) return await this.handOff(burst, chatKey, config.handoffPhrase);
      const outcome = await this.deps.runner.answerChat(userId, config, { chat, customerLines: lines });
      if (outcome.handoff) return await this.handOff(burst, chatKey, config.handoffPhrase);
      if (outcome.answer === '') return;
      // The owner may have paused the chat while the model was answering (a colleague taking over, the inbox refuses).
      if (await this.deps.chats.silenced(userId, chatKey)) {
        this.deps.log.info({ userId }, 'automatic answer dropped: the chat was paused meanwhile');
        return;
      }
      await this.send(burst, fitAnswer(outcome.answer));
    } catch (error) {
      // AppError messages are the Spanish sentences of the API (no secrets); anything else by name only.
      const reason = error instanceof AppError ? error.code : error instanceof Error ? error.name : 'unknown';
      if (passing(error)) {
        this.deps.log.warn({ userId, reason }, 'automatic answer failed; answered again once its lease runs out');
        throw new AnswerRetriedLater(reason);
      }
      this.deps.log.warn({ userId, reason }, 'automatic answer failed');
    }
  }

  private async handOff(burst: ClaimedBurst, chatKey: string, phrase: string): Promise<void> {
    await this.deps.chats.handedOff(burst.userId, chatKey);
    await this.send(burst, phrase);
  }

  /**
   * The burst's id names the send: a replica answering the burst again (the first one died after asking the
   * inbox to send, before the burst was marked done) gets the message already sent, never a second one.
   */
  private async send(burst: ClaimedBurst, text: string): Promise<void> {
    const sent = await this.deps.inbox.answer(burst.userId, burst.conversationId, text, burst.id);
    if (!sent) this.deps.log.info({ userId: burst.userId }, 'automatic answer dropped: a person took the conversation over meanwhile');
  }
}

/**
 * A sibling that could not be reached or failed on its side (5xx), or the database unreachable: worth another
 * try. An answer outside the sibling's contract is not: asking again gets the same answer.
 */
function passing(error: unknown): boolean {
  if (error instanceof ServiceAnswerError) return false;
  return (error instanceof ServiceCallError && error.statusCode >= 500) || isDatabaseUnavailable(error);
}
