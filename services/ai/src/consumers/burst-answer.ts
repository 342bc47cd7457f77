import { MessagesById } from '@asistente/contracts';
import type { Logger, ServiceClient } from '@asistente/kit';
import { AppError, isDatabaseUnavailable, ServiceAnswerError, ServiceCallError } from '@asistente/kit';
import type { AssistantConfigService } from '../domain/assistant-config.service.js';
import type { AssistantRunService } from '../domain/assistant-run.service.js';
import type { ClaimedBurst } from '../domain/chat-bursts.repository.js';
import type { ChatStateService } from '../domain/chat-state.service.js';
import { asksForHuman } from '../domain/prompt.js';
import { teamTookOver } from '../domain/team-takeover.js';
import { customerLines } from './customer-burst.js';

export interface BurstAnswerDeps {
  assistant: AssistantConfigService;
  chats: ChatStateService;
  runner: AssistantRunService;
  services: Pick<ServiceClient, 'call' | 'request'>;
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
 * One answer to a claimed burst, if the assistant is switched on and the chat is neither paused nor over a
 * cap; a customer asking for a person gets the hand-off phrase and the chat pauses until the owner resumes it.
 * Failures are logged (never with the key); a passing one leaves the burst to be answered again (the send is
 * idempotent), any other lets the chat wait for the next message.
 */
export class BurstAnswerer {
  constructor(private readonly deps: BurstAnswerDeps) {}

  async answer(burst: ClaimedBurst): Promise<void> {
    const { userId, chatId: jid } = burst;
    try {
      const config = await this.deps.assistant.get(userId);
      if (!config.autoReply) return;
      const state = await this.deps.chats.state(userId, jid);
      if (state.paused) {
        this.deps.log.info({ userId, reason: state.reason }, 'automatic answer withheld');
        return;
      }
      const found = await this.deps.services.call('whatsapp', userId, '/whatsapp/messages/by-id', MessagesById, {
        query: { ids: burst.messageIds.join(',') },
      });
      const lines = customerLines(found.data);
      if (lines.length === 0) return;
      const handle = found.data[0]!.handle;
      if (await teamTookOver(this.deps.services, userId, handle)) {
        this.deps.log.info({ userId, reason: 'team' }, 'automatic answer withheld');
        return;
      }
      if (asksForHuman(lines)) return await this.handOff(burst, config.handoffPhrase);
      const outcome = await this.deps.runner.answerChat(userId, config, { jid, customerLines: lines });
      if (outcome.handoff) return await this.handOff(burst, config.handoffPhrase);
      if (outcome.answer === '') return;
      // The owner or a colleague in the inbox may have taken over (or paused the chat) while the model was answering.
      if ((await this.deps.chats.silenced(userId, jid)) || (await teamTookOver(this.deps.services, userId, handle))) {
        this.deps.log.info({ userId }, 'automatic answer dropped: the chat was paused meanwhile');
        return;
      }
      await this.send(burst, outcome.answer);
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

  private async handOff(burst: ClaimedBurst, phrase: string): Promise<void> {
    await this.deps.chats.handedOff(burst.userId, burst.chatId);
    await this.send(burst, phrase);
  }

  /**
   * The burst's id is the send's client id: a replica answering the burst again (the first one died after asking
   * WhatsApp to send, before the burst was marked done) gets the message already queued, never a second one.
   */
  private async send(burst: ClaimedBurst, text: string): Promise<void> {
    await this.deps.services.request('whatsapp', burst.userId, '/whatsapp/messages', {
      method: 'POST',
      body: { jid: burst.chatId, type: 'text', text, origin: 'ai', clientMessageId: burst.id },
    });
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
