import type { AssistantConfig } from '@asistente/contracts';
import { DEFAULT_CONFIG, normalizeAssistantConfig, toAssistantConfig, type FullAssistantConfig } from './assistant-config.js';
import type { AssistantConfigRepository } from './assistant-config.repository.js';

export class AssistantConfigService {
  constructor(private readonly configs: AssistantConfigRepository) {}

  /** The saved configuration, or the defaults for a user who never saved one. */
  async get(userId: string): Promise<FullAssistantConfig> {
    const row = await this.configs.find(userId);
    return row ? toAssistantConfig(row) : DEFAULT_CONFIG;
  }

  /** Replaces the configuration (fields left out keep their stored value) and answers it as stored. */
  async save(userId: string, body: AssistantConfig): Promise<FullAssistantConfig> {
    const current = await this.get(userId);
    return toAssistantConfig(await this.configs.upsert(userId, normalizeAssistantConfig(body, current)));
  }
}
