import { ErrorResponse, OpenAiKeyBody, OpenAiKeySaved, OpenAiKeyStatus, securityClient, SuccessResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { ProviderKeysService } from '../domain/provider-keys.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse };

export async function openAiKeyRoutes(app: App, { keys }: { keys: ProviderKeysService }): Promise<void> {
  app.get('/ai/provider/openai/key', {
    schema: { summary: 'Estado de la clave de OpenAI (solo los 4 últimos caracteres)', response: { 200: OpenAiKeyStatus, ...errors } },
    handler: (request) => keys.status(request.user.workspaceId),
  });

  app.put('/ai/provider/openai/key', {
    schema: { summary: 'Guarda la clave de OpenAI', body: OpenAiKeyBody, response: { 200: OpenAiKeySaved, ...errors } },
    handler: (request) => keys.save(request.user.workspaceId, request.body.apiKey, securityClient(request)),
  });

  app.delete('/ai/provider/openai/key', {
    schema: { summary: 'Elimina la clave de OpenAI', response: { 200: SuccessResponse, ...errors } },
    handler: async (request) => {
      await keys.delete(request.user.workspaceId, securityClient(request));
      return { success: true as const };
    },
  });
}
