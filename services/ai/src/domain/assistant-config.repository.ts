import type { AssistantConfig } from '@asistente/contracts';
import type { Sql } from '@asistente/kit';
import type { AssistantConfigRow } from './assistant-config.js';

const COLUMNS: (keyof AssistantConfig)[] = [
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
];
const INSERT_COLUMNS: (keyof AssistantConfig | 'userId')[] = [...COLUMNS, 'userId'];

/** `ai.assistant_configs`: at most one row per user. */
export class AssistantConfigRepository {
  constructor(private readonly sql: Sql) {}

  async find(userId: string): Promise<AssistantConfigRow | undefined> {
    const [row] = await this.sql<AssistantConfigRow[]>`
      select ${this.sql(COLUMNS)} from ai.assistant_configs where user_id = ${userId}`;
    return row;
  }

  async upsert(userId: string, config: AssistantConfig): Promise<AssistantConfigRow> {
    const sql = this.sql;
    const values = { ...config, userId };
    const [row] = await sql<AssistantConfigRow[]>`
      insert into ai.assistant_configs ${sql(values, INSERT_COLUMNS)}
      on conflict (user_id) do update set ${sql(config, COLUMNS)}, updated_at = now()
      returning ${sql(COLUMNS)}`;
    return row!;
  }
}
