import { DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from '@asistente/contracts';
import { normalizeAssistantConfig, toAssistantConfig } from './assistant-config.js';
import type { AssistantConfigRepository } from './assistant-config.repository.js';

export class AssistantConfigService {
  constructor(private readonly configs: AssistantConfigRepository) {}

  /** The saved configuration, or the defaults for a user who never saved one. */
  async get(userId: string): Promise<AssistantConfig> {
    const row = await this.configs.find(userId);
    return row ? toAssistantConfig(row) : DEFAULT_ASSISTANT_CONFIG;
  }

  /** Replaces the whole configuration and answers it as stored. */
  async save(userId: string, body: AssistantConfig): Promise<AssistantConfig> {
    return toAssistantConfig(await this.configs.upsert(userId, normalizeAssistantConfig(body)));
  }
}
