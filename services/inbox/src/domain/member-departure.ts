import { createEvent, type Outbox, type Sql } from '@asistente/kit';
import type { ConversationsRepository } from './conversations.repository.js';
import type { InboxSettingsRepository } from './inbox-settings.repository.js';
import type { LiveSignals } from './live-signals.js';

/**
 * A member who left a workspace (or deleted their account: every workspace): what was assigned to them goes
 * back to the team, unassigned, and their availability and reads go. What they wrote stays, under their name.
 */
export class MemberDeparture {
  constructor(
    private readonly deps: { sql: Sql; outbox: Outbox; conversations: ConversationsRepository; settings: InboxSettingsRepository; signals: LiveSignals },
  ) {}

  async left(workspaceId: string | null, memberId: string): Promise<void> {
    const unassigned = await this.deps.sql.begin(async (tx) => {
      const unassigned = await this.deps.conversations.unassignMember(tx, workspaceId, memberId);
      await this.deps.settings.forget(tx, workspaceId, memberId);
      await this.deps.outbox.append(
        tx,
        unassigned.map((c) => createEvent('conversation.assigned', c.userId, { conversationId: c.id, assigneeId: null, by: 'rule' })),
      );
      return unassigned;
    });
    for (const c of unassigned) this.deps.signals.changed(c.userId, c.id);
  }
}
