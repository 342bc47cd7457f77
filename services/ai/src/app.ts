import { authPlugin, requireAuth, type App, type ServicePlugin } from '@asistente/kit';
import { AssistantConfigRepository } from './domain/assistant-config.repository.js';
import { AssistantConfigService } from './domain/assistant-config.service.js';
import { ProviderKeysRepository } from './domain/provider-keys.repository.js';
import { ProviderKeysService } from './domain/provider-keys.service.js';
import { assistantRoutes } from './routes/assistant.js';
import { openAiKeyRoutes } from './routes/openai-key.js';

/** The ai service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const aiService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  requireAuth(app);
  const sql = platform.db.sql;
  await openAiKeyRoutes(app, { keys: new ProviderKeysService(new ProviderKeysRepository(sql), platform.secrets) });
  await assistantRoutes(app, { assistant: new AssistantConfigService(new AssistantConfigRepository(sql)) });
};

export default aiService;
