import { AssistantConfig, AssistantConfigResponse, AssistantConfigSaved, ErrorResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { AssistantConfigService } from '../domain/assistant-config.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse };

export async function assistantRoutes(app: App, { assistant }: { assistant: AssistantConfigService }): Promise<void> {
  app.get('/ai/assistant', {
    schema: { summary: 'Devuelve la configuración del asistente', response: { 200: AssistantConfigResponse, ...errors } },
    handler: async (request) => ({ data: await assistant.get(request.user.workspaceId) }),
  });

  app.put('/ai/assistant', {
    schema: { summary: 'Guarda la configuración del asistente', body: AssistantConfig, response: { 200: AssistantConfigSaved, ...errors } },
    handler: async (request) => ({ success: true as const, data: await assistant.save(request.user.workspaceId, request.body) }),
  });
}
