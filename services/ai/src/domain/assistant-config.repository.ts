import type { Sql } from '@asistente/kit';
import type { AssistantConfigRow, FullAssistantConfig } from './assistant-config.js';

const COLUMNS: (keyof FullAssistantConfig)[] = [
  'name',
  'goal',
  'tone',
  'systemPrompt',
  'variables',
  'customVars',
  'internalSources',
  'allowWeb',
  'model',
  'temperature',
  'maxTokens',
  'variableValues',
  'autoReply',
  'maxRepliesPerChatPerDay',
  'dailyBudgetUsd',
  'canBookMeetings',
  'handoffPhrase',
];
const INSERT_COLUMNS: (keyof FullAssistantConfig | 'userId')[] = [...COLUMNS, 'userId'];

/** `ai.assistant_configs`: at most one row per user. */
export class AssistantConfigRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string): Promise<AssistantConfigRow | undefined> {
    const [row] = await this.sql<AssistantConfigRow[]>`
      select ${this.sql(COLUMNS)} from ai.assistant_configs where user_id = ${userId}`;
    return row;
  }

  async upsert(userId: string, config: FullAssistantConfig): Promise<AssistantConfigRow> {
    const sql = this.sql;
    // Pairs, not an object: the driver's camelCase transform would rewrite `{nombre_cliente}` as a JSON key.
    const stored = { ...config, variableValues: sql.json(Object.entries(config.variableValues)) };
    const values = { ...stored, userId };
    const [row] = await sql<AssistantConfigRow[]>`
      insert into ai.assistant_configs ${sql(values, INSERT_COLUMNS)}
      on conflict (user_id) do update set ${sql(stored, COLUMNS)}, updated_at = now()
      returning ${sql(COLUMNS)}`;
    return row!;
  }
}
