import type { Logger, ServiceCaller } from '@asistente/kit';
import { chatKeyOf } from './chat-key.js';
import type { ChatStatesRepository, LegacyChatState } from './chat-states.repository.js';

/** Pauses moved per round (and JIDs per question to the WhatsApp service, which answers up to 100). */
const BATCH = 100;

/**
 * Moves the pauses kept under WhatsApp JIDs (before the assistant worked with the inbox's conversations) to
 * their chat keys, asking the WhatsApp service for each JID's handle: a chat the owner paused stays paused. Runs
 * at each start until none is left; idempotent, so replicas running it at once do no harm. Returns false when the
 * WhatsApp service could not answer (tried again later).
 */
export async function moveLegacyPauses(deps: {
  states: Pick<ChatStatesRepository, 'legacy' | 'rekey'>;
  handlesOf: (caller: ServiceCaller, jids: readonly string[]) => Promise<Map<string, string>>;
  log: Logger;
}): Promise<boolean> {
  let moved = 0;
  for (;;) {
    const rows = await deps.states.legacy(BATCH);
    if (rows.length === 0) break;
    try {
      for (const [workspaceId, jids] of byWorkspace(rows)) {
        const handles = await deps.handlesOf(workspaceId, jids);
        for (const jid of jids) {
          const handle = handles.get(jid);
          // A JID the WhatsApp service names no handle for is reached by no conversation: its pause is dropped.
          await deps.states.rekey(workspaceId, jid, handle ? chatKeyOf('whatsapp', handle) : null);
          moved++;
        }
      }
    } catch (error) {
      deps.log.warn({ err: error, moved }, 'assistant pauses not all moved to chat keys yet; tried again later');
      return false;
    }
  }
  if (moved > 0) deps.log.info({ moved }, 'assistant pauses moved from WhatsApp JIDs to chat keys');
  return true;
}

function byWorkspace(rows: readonly LegacyChatState[]): Map<string, string[]> {
  const grouped = new Map<string, string[]>();
  for (const row of rows) grouped.set(row.userId, [...(grouped.get(row.userId) ?? []), row.chatId]);
  return grouped;
}

/** How long after a failed round the next one runs. */
const RETRY_MS = 60_000;

/** Runs `moveLegacyPauses` now and again after each failed round, until one succeeds or `stop` is called. */
export function startMovingLegacyPauses(deps: Parameters<typeof moveLegacyPauses>[0]): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;
  const round = () => {
    running = moveLegacyPauses(deps)
      .catch((error: unknown) => {
        deps.log.warn({ err: error }, 'assistant pauses not moved to chat keys; tried again later');
        return false;
      })
      .then((done) => {
        if (!done && !stopped) timer = setTimeout(round, RETRY_MS).unref();
      });
  };
  round();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
