import type { UserErasure } from '@asistente/kit';

/**
 * Analytics' part of "Eliminar mi cuenta": rollups (hourly, totals, chats, the team inbox's conversation
 * openings and answerers) and the processed event ids go with every `user_id` table of the schema; a parked
 * event keeps its envelope as JSON, so the user's are found by the id inside it.
 */
export const analyticsErasure: UserErasure = {
  service: 'analytics',
  erase: async (tx, userId) => {
    await tx`delete from analytics.parked_events where payload->>'userId' = ${userId}`;
  },
};
