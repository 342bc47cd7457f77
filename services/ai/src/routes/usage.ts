import { AiUsageToday, ErrorResponse } from '@asistente/contracts';
import type { App } from '@asistente/kit';
import type { AssistantConfigService } from '../domain/assistant-config.service.js';
import type { RunsRepository } from '../domain/runs.repository.js';

export async function usageRoutes(app: App, { runs, assistant }: { runs: RunsRepository; assistant: AssistantConfigService }): Promise<void> {
  app.get('/ai/usage/today', {
    schema: { summary: 'Consumo del asistente hoy', response: { 200: AiUsageToday, 401: ErrorResponse } },
    handler: async (request) => {
      const [spent, config] = await Promise.all([runs.spentToday(request.user.workspaceId), assistant.get(request.user.workspaceId)]);
      return { spentUsd: spent, dailyBudgetUsd: config.dailyBudgetUsd, budgetReached: spent >= config.dailyBudgetUsd };
    },
  });
}
