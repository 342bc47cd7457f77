import type { Sql } from '@asistente/kit';

export interface ExportedConfig {
  name: string;
  goal: string;
  tone: string;
  systemPrompt: string;
  variables: string[];
  customVars: string[];
  internalSources: string[];
  allowWeb: boolean;
  model: string;
  temperature: string;
  maxTokens: number;
  updatedAt: Date;
}

export interface ExportedRun {
  id: string;
  trigger: string;
  chatId: string | null;
  model: string;
  promptTokens: number;
  completionTokens: number;
  costUsd: string;
  replied: boolean;
  createdAt: Date;
  /** Where the next page starts after it: its time as PostgreSQL writes it (to the microsecond). */
  at: string;
}

export interface ExportedChatState {
  chatId: string;
  paused: boolean;
  pausedUntil: Date | null;
  reason: string | null;
  updatedAt: Date;
}

/** What "Descargar mis datos" reads of the assistant. Never ai.provider_keys (the OpenAI key). */
export class AccountExportRepository {
  constructor(private readonly sql: Sql) {}

  async config(userId: string): Promise<ExportedConfig | undefined> {
    const [row] = await this.sql<ExportedConfig[]>`
      select name, goal, tone, system_prompt, variables, custom_vars, internal_sources, allow_web, model, temperature::text as temperature,
        max_tokens, updated_at
      from ai.assistant_configs where user_id = ${userId}`;
    return row;
  }

  async runs(userId: string, after: string | undefined, limit: number): Promise<ExportedRun[]> {
    const [at, id] = after ? after.split('|') : [];
    return this.sql<ExportedRun[]>`
      select id, trigger, chat_id, model, prompt_tokens, completion_tokens, cost_usd::text as cost_usd, replied, created_at, created_at::text as at
      from ai.runs
      where user_id = ${userId} ${at && id ? this.sql`and (created_at, id) > (${at}::timestamptz, ${id}::uuid)` : this.sql``}
      order by created_at, id
      limit ${limit}`;
  }

  async chatStates(userId: string, after: string | undefined, limit: number): Promise<ExportedChatState[]> {
    return this.sql<ExportedChatState[]>`
      select chat_id, paused, paused_until, reason, updated_at from ai.chat_states
      where user_id = ${userId} ${after ? this.sql`and chat_id > ${after}` : this.sql``}
      order by chat_id limit ${limit}`;
  }
}
