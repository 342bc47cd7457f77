import type { Sql } from '@asistente/kit';

export type StoredPauseReason = 'manual' | 'owner_takeover' | 'handoff';

export interface ChatStateRow {
  paused: boolean;
  pausedUntil: Date | null;
  reason: StoredPauseReason | null;
}

/** `ai.chat_states`: the pauses of the automatic answers, per (user, chat). */
export class ChatStatesRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string, chatId: string): Promise<ChatStateRow | undefined> {
    const [row] = await this.sql<ChatStateRow[]>`
      select paused, paused_until, reason from ai.chat_states where user_id = ${userId} and chat_id = ${chatId}`;
    return row;
  }

  async save(userId: string, chatId: string, state: ChatStateRow): Promise<void> {
    await this.sql`
      insert into ai.chat_states (user_id, chat_id, paused, paused_until, reason)
      values (${userId}, ${chatId}, ${state.paused}, ${state.pausedUntil}, ${state.reason})
      on conflict (user_id, chat_id) do update
        set paused = excluded.paused, paused_until = excluded.paused_until, reason = excluded.reason, updated_at = now()`;
  }
}
