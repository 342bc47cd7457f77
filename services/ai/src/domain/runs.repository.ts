import type { Sql, TransactionSql } from '@asistente/kit';

export interface RunRecord {
  id: string;
  userId: string;
  trigger: 'manual' | 'whatsapp';
  chatId: string | null;
  model: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  replied: boolean;
}

/** Midnight UTC of today: the caps count calendar days in UTC. */
const TODAY = 'date_trunc(\'day\', now() at time zone \'UTC\') at time zone \'UTC\'';

/** `ai.runs`: what each run cost, for the daily budget and the per-chat cap. */
export class RunsRepository {
  constructor(private readonly sql: Sql) {}

  async insert(tx: TransactionSql, run: RunRecord): Promise<void> {
    await tx`insert into ai.runs ${tx(run, 'id', 'userId', 'trigger', 'chatId', 'model', 'promptTokens', 'completionTokens', 'costUsd', 'replied')}`;
  }

  async spentToday(userId: string): Promise<number> {
    const [row] = await this.sql<{ spent: string }[]>`
      select coalesce(sum(cost_usd), 0) as spent from ai.runs
      where user_id = ${userId} and created_at >= ${this.sql.unsafe(TODAY)}`;
    return Number(row!.spent);
  }

  async repliesToday(userId: string, chatId: string): Promise<number> {
    const [row] = await this.sql<{ count: number }[]>`
      select count(*)::int as count from ai.runs
      where user_id = ${userId} and chat_id = ${chatId} and replied and created_at >= ${this.sql.unsafe(TODAY)}`;
    return row!.count;
  }
}
