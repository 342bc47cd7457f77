import { DEFAULT_ASSISTANT_CONFIG } from '@asistente/contracts';
import { OpenAiPeer } from '../../../services/ai/test/fixtures/openai-peer.js';
import type { Call } from './mail-load.js';
import type { Teardown } from './support.js';

/** The ai service's quiet window (services/ai/src/app.ts AUTO_REPLY_TIMING: no setting shortens it in a process). */
export const QUIET_MS = 4000;
/**
 * How long the model takes to answer: long enough that a burst is being answered (claimed, its lease held) at
 * most moments, so the ai replica killed is caught mid-answer.
 */
const MODEL_MS = 1000;
const AI_ANSWER = 'Sí, hacemos envíos a domicilio en 24 h';

/**
 * The automatic-answer side of the fault suite: an OpenAI peer in the test's process, the user's key and an
 * assistant answering WhatsApp customers, and customer chats of their own (`3470…`) whose lines no keyword
 * rule answers.
 */
export class AiLoad {
  /** The chats given a customer line, in order, with when the line reached the phone. */
  readonly chats: { jid: string; at: number }[] = [];

  private constructor(readonly peer: OpenAiPeer) {}

  static async start(t: Teardown): Promise<AiLoad> {
    const peer = await OpenAiPeer.start();
    t.teardown(() => peer.close());
    return new AiLoad(peer);
  }

  /** The assistant on, through the API as the owner sets it: a key, automatic answers, no caps in the way. */
  async configure(call: Call): Promise<number[]> {
    const key = await call('PUT', '/ai/provider/openai/key', { apiKey: 'sk-proj-FaultSuiteKey0123456789abcdWXYZ' });
    const assistant = await call('PUT', '/ai/assistant', {
      ...DEFAULT_ASSISTANT_CONFIG,
      autoReply: true,
      // No tools: the answer is the model's text, whatever the siblings' state.
      internalSources: [],
      maxRepliesPerChatPerDay: 200,
      dailyBudgetUsd: 1000,
    });
    return [key.status, assistant.status];
  }

  /** A new customer chat and its one line. */
  next(): { from: string; text: string } {
    const i = this.chats.length;
    return { from: `3470${String(100_000 + i).padStart(7, '0')}@s.whatsapp.net`, text: `Buenas, ¿hacéis envíos a domicilio? (pedido ${i})` };
  }

  /** The line reached the phone: the model's answer to it is queued (a run repeated after a kill gets the peer's "Hola"). */
  given(jid: string): void {
    this.peer.reply({ delayMs: MODEL_MS, then: { text: AI_ANSWER } });
    this.chats.push({ jid, at: Date.now() });
  }

  static isChat(jid: string): boolean {
    return jid.startsWith('3470');
  }
}
