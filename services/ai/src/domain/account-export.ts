import { jsonArrayPart, singlePart, type AccountExportPart } from '@asistente/kit';
import type { AccountExportRepository } from './account-export.repository.js';

/**
 * The assistant's share of "Descargar mis datos": its configuration, every AI run (what it cost, in which
 * chat) and the chats where it is paused. The OpenAI key is never read.
 */
export function aiExportParts(repository: AccountExportRepository): AccountExportPart[] {
  return [
    singlePart('asistente.json', async (userId) => {
      const config = await repository.config(userId);
      return config ? `${JSON.stringify({ ...config, temperature: Number(config.temperature) }, null, 2)}\n` : null;
    }),
    jsonArrayPart(
      'ejecuciones.json',
      { rows: (userId, after, limit) => repository.runs(userId, after, limit), key: (run) => `${run.at}|${run.id}` },
      ({ at: _at, costUsd, ...run }) => ({ ...run, costUsd: Number(costUsd) }),
      5000,
    ),
    jsonArrayPart(
      'chats-pausados.json',
      { rows: (userId, after, limit) => repository.chatStates(userId, after, limit), key: (state) => state.chatId },
      (state) => state,
    ),
  ];
}
