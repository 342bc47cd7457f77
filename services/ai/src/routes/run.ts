import { AiRunBody, AiRunResult, ErrorResponse } from '@asistente/contracts';
import { callerOf, type App } from '@asistente/kit';
import type { AssistantRunService } from '../domain/assistant-run.service.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse, 504: ErrorResponse };

export async function runRoutes(app: App, { runner }: { runner: AssistantRunService }): Promise<void> {
  app.post('/ai/run', {
    schema: { summary: 'Pregunta al asistente', body: AiRunBody, response: { 200: AiRunResult, ...errors } },
    // The response schema keeps only the documented fields (the hand-off flag is the consumer's business).
    handler: (request) => runner.run(callerOf(request.user), request.body),
  });
}
