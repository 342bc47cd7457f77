import { aiRoutes } from '@asistente/contracts';
import { AppError, ServiceAnswerError, ServiceCallError, type ServiceCaller, type ServiceClient } from '@asistente/kit';
import type { DraftRequest, ReplyDrafter } from '../domain/reply-drafter.js';

/**
 * How long a member waits for a draft: the model may call a few tools and OpenAI may be slow, but the button's
 * busy state must end. Past this the call is abandoned (a run that still finishes records only its cost).
 */
export const SUGGESTION_TIMEOUT_MS = 60_000;

// The service client tells neither apart: the ai too slow, or not reachable at all.
const TOO_SLOW = new AppError(504, 'ASSISTANT_TIMEOUT', 'El asistente no respondió a tiempo. Inténtalo de nuevo en unos segundos');
const UNAVAILABLE = new AppError(502, 'ASSISTANT_UNAVAILABLE', 'El asistente no está disponible en este momento. Inténtalo de nuevo en unos segundos');

/** The ai service's `POST /ai/suggestions`, asked as the member whose request led here. */
export class AssistantDrafts implements ReplyDrafter {
  constructor(
    private readonly services: Pick<ServiceClient, 'call'>,
    private readonly timeoutMs = SUGGESTION_TIMEOUT_MS,
  ) {}

  async draft(caller: ServiceCaller, request: DraftRequest): Promise<string> {
    try {
      const answer = await this.services.call(aiRoutes.suggestion, caller, {
        body: {
          conversationId: request.conversationId,
          channel: request.channel,
          handle: request.handle,
          contactId: request.contactId,
          lines: request.lines,
          ...(request.instruction ? { instruction: request.instruction } : {}),
        },
        timeoutMs: this.timeoutMs,
      });
      return answer.answer;
    } catch (error) {
      throw inSpanish(error);
    }
  }
}

/**
 * The ai's statuses a member can act on, passed with its Spanish message: no key or OpenAI refusing it (409),
 * OpenAI failing or slow (502, 503, 504), a conversation it cannot draft for (400). A 401 or 403 between services
 * is not the member's session (passed on, it would sign them out), nor is a 500 theirs to read.
 */
const PASSED = new Set([400, 409, 429, 502, 503, 504]);

/**
 * The ai's own refusal or failure passes as it is; no answer at all is the call's timeout; anything else is the
 * assistant being unavailable, said so.
 */
function inSpanish(error: unknown): unknown {
  if (!(error instanceof ServiceCallError)) return error;
  if (error instanceof ServiceAnswerError) return UNAVAILABLE;
  const body = error.body as { code?: unknown; message?: unknown } | undefined;
  if (error.statusCode === 503 && body === undefined) return TOO_SLOW;
  if (PASSED.has(error.statusCode) && typeof body?.message === 'string') {
    return new AppError(error.statusCode, typeof body.code === 'string' ? body.code : 'ASSISTANT_REFUSED', body.message);
  }
  return UNAVAILABLE;
}
