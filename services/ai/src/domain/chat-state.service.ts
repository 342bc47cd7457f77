import type { AiChatState } from '@asistente/contracts';
import type { AssistantConfigService } from './assistant-config.service.js';
import type { ChatStatesRepository } from './chat-states.repository.js';
import type { RunsRepository } from './runs.repository.js';

/** How long the assistant stays silent in a chat after the owner writes in it from the phone. */
export const OWNER_TAKEOVER_MS = 30 * 60_000;

const ACTIVE: AiChatState = { paused: false, pausedUntil: null, reason: null };

/** Whether the assistant may answer a chat now, and if not, why: the pauses first, then the day's caps. */
export class ChatStateService {
  constructor(
    private readonly states: ChatStatesRepository,
    private readonly runs: RunsRepository,
    private readonly assistant: AssistantConfigService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async state(userId: string, chatId: string): Promise<AiChatState> {
    const row = await this.states.find(userId, chatId);
    if (row?.paused) return { paused: true, pausedUntil: null, reason: row.reason ?? 'manual' };
    if (row?.pausedUntil && row.pausedUntil > this.now()) {
      return { paused: true, pausedUntil: row.pausedUntil.toISOString(), reason: row.reason ?? 'owner_takeover' };
    }
    const config = await this.assistant.get(userId);
    if ((await this.runs.repliesToday(userId, chatId)) >= config.maxRepliesPerChatPerDay) {
      return { paused: true, pausedUntil: null, reason: 'daily_cap' };
    }
    if ((await this.runs.spentToday(userId)) >= config.dailyBudgetUsd) return { paused: true, pausedUntil: null, reason: 'daily_budget' };
    return ACTIVE;
  }

  /** Paused by the owner, a takeover or a hand-off (not the caps): checked again right before an answer goes out. */
  async silenced(userId: string, chatId: string): Promise<boolean> {
    const row = await this.states.find(userId, chatId);
    return row !== undefined && (row.paused || (row.pausedUntil !== null && row.pausedUntil > this.now()));
  }

  /** The owner's switch: paused until resumed, or resumed (a takeover or hand-off pause ends too). */
  async setPaused(userId: string, chatId: string, paused: boolean): Promise<AiChatState> {
    await this.states.save(userId, chatId, paused ? { paused: true, pausedUntil: null, reason: 'manual' } : { paused: false, pausedUntil: null, reason: null });
    return this.state(userId, chatId);
  }

  /** The owner wrote from the phone: silent for 30 minutes, unless a pause without end already holds. */
  async ownerTookOver(userId: string, chatId: string): Promise<void> {
    const row = await this.states.find(userId, chatId);
    if (row?.paused) return;
    await this.states.save(userId, chatId, {
      paused: false,
      pausedUntil: new Date(this.now().getTime() + OWNER_TAKEOVER_MS),
      reason: 'owner_takeover',
    });
  }

  /** A customer asked for a person: silent until the owner resumes the chat. */
  async handedOff(userId: string, chatId: string): Promise<void> {
    await this.states.save(userId, chatId, { paused: true, pausedUntil: null, reason: 'handoff' });
  }
}
