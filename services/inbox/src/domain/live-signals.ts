import type { ConversationPresence } from '@asistente/contracts';
import type { EventBus } from '@asistente/kit';

/** Bus topics every inbox replica listens on for its open live streams. */
export const CONVERSATION_CHANGED = 'inbox.changed';
export const PRESENCE_CHANGED = 'inbox.presence';

export interface ChangedSignal {
  workspaceId: string;
  conversationId: string;
}

export interface PresenceSignal {
  workspaceId: string;
  presence: ConversationPresence;
}

/**
 * What the inbox tells the open screens of a workspace, on whichever replica holds them: a conversation changed
 * (a message, an assignment, a status: refetch it), or who is viewing and typing in one. Fire and forget: a
 * screen that missed one still refreshes on its next read.
 */
export class LiveSignals {
  constructor(private readonly bus: Pick<EventBus, 'signal'>) {}

  changed(workspaceId: string, conversationId: string): void {
    this.bus.signal(CONVERSATION_CHANGED, JSON.stringify({ workspaceId, conversationId } satisfies ChangedSignal));
  }

  presence(workspaceId: string, presence: ConversationPresence): void {
    this.bus.signal(PRESENCE_CHANGED, JSON.stringify({ workspaceId, presence } satisfies PresenceSignal));
  }
}
