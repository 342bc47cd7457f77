import type { Sql } from '@asistente/kit';

export type StoredPauseReason = 'manual' | 'owner_takeover' | 'handoff';

export interface ChatStateRow {
  paused: boolean;
  pausedUntil: Date | null;
  reason: StoredPauseReason | null;
}

/** A pause kept under a WhatsApp JID, from before chats had channel-neutral keys. */
export interface LegacyChatState {
  userId: string;
  chatId: string;
}

/** `ai.chat_states`: the pauses of the automatic answers, per (workspace, chat key: chat-key.ts). */
export class ChatStatesRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string, chatId: string): Promise<ChatStateRow | undefined> {
    const [row] = await this.sql<ChatStateRow[]>`
      select paused, paused_until, reason from ai.chat_states where user_id = ${userId} and chat_id = ${chatId}`;
    return row;
  }

  /** Up to `limit` pauses still kept under a JID (a key has no `@`; a JID always has one). */
  async legacy(limit: number): Promise<LegacyChatState[]> {
    return this.sql<LegacyChatState[]>`
      select user_id, chat_id from ai.chat_states where chat_id like '%@%' order by user_id limit ${limit}`;
  }

  /**
   * Moves a pause from its JID to its chat key; when the key already has a state (set after the upgrade), that
   * newer one stands and the old is dropped, as it is when no key names the chat (null).
   */
  async rekey(userId: string, jid: string, chatKey: string | null): Promise<void> {
    if (chatKey === null) {
      await this.sql`delete from ai.chat_states where user_id = ${userId} and chat_id = ${jid}`;
      return;
    }
    await this.sql.begin(async (tx) => {
      const [moved] = await tx`
        update ai.chat_states set chat_id = ${chatKey}
        where user_id = ${userId} and chat_id = ${jid}
          and not exists (select 1 from ai.chat_states where user_id = ${userId} and chat_id = ${chatKey})
        returning 1`;
      if (!moved) await tx`delete from ai.chat_states where user_id = ${userId} and chat_id = ${jid}`;
    });
  }

  async save(userId: string, chatId: string, state: ChatStateRow): Promise<void> {
    await this.sql`
      insert into ai.chat_states (user_id, chat_id, paused, paused_until, reason)
      values (${userId}, ${chatId}, ${state.paused}, ${state.pausedUntil}, ${state.reason})
      on conflict (user_id, chat_id) do update
        set paused = excluded.paused, paused_until = excluded.paused_until, reason = excluded.reason, updated_at = now()`;
  }
}
