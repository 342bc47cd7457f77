import { ErrorResponse, WidgetBody, WidgetPatch, WidgetSettings } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { WidgetSettingsService } from '../domain/widget/widget-settings.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** Configuración → "Chat web": the workspace's website widget, for its owner and admins (the role table). */
export async function widgetRoutes(app: App, { settings }: { settings: WidgetSettingsService }): Promise<void> {
  app.get('/widget', {
    schema: { summary: 'El chat web de tu sitio: su clave pública y el fragmento para pegar en tu web', response: { 200: WidgetSettings, ...errors } },
    handler: (request) => settings.get(request.user.workspaceId),
  });

  app.post('/widget', {
    schema: { summary: 'Crea el chat web de tu sitio (uno por espacio de trabajo)', body: WidgetBody, response: { 201: WidgetSettings, ...errors } },
    handler: async (request, reply) => reply.code(201).send(await settings.create(request.user.workspaceId, request.body)),
  });

  app.patch('/widget', {
    schema: { summary: 'Cambia el nombre, el color, el saludo o los orígenes permitidos del chat web', body: WidgetPatch, response: { 200: WidgetSettings, ...errors } },
    handler: (request) => settings.update(request.user.workspaceId, request.body),
  });
}
