import { PRESENCE_TYPING_MS, PRESENCE_VIEWING_MS, type ConversationPresence, type PresenceBody } from '@asistente/contracts';
import { LruMap, notFound, type ActingMember, type Sql } from '@asistente/kit';
import { CONVERSATION_NOT_FOUND } from './conversation-errors.js';
import type { LiveSignals } from './live-signals.js';
import type { MembersDirectory } from './members-directory.js';

/** Names asked of auth at most this often per member: a typing member renews every few seconds. */
const NAME_TTL_MS = 60_000;

interface PresenceRow {
  memberId: string;
  memberName: string;
  viewingUntil: Date;
  typingUntil: Date | null;
}

/**
 * Who is viewing and typing in a conversation. Each member's client says so while it is true (renewing before
 * it lapses); the state lives in PostgreSQL so every replica agrees, and each change is signalled at once to
 * the workspace's open screens on every replica: "Ana está escribiendo…" within the bus's latency.
 */
export class Presence {
  private readonly names = new LruMap<{ name: string; at: number }>(2_000);

  constructor(
    private readonly deps: { sql: Sql; members: Pick<MembersDirectory, 'list'>; signals: LiveSignals; now?: () => number },
  ) {}

  async update(member: ActingMember, conversationId: string, body: PresenceBody): Promise<ConversationPresence> {
    const { sql } = this.deps;
    const now = this.now();
    const name = await this.nameOf(member);
    const presence = await sql.begin(async (tx) => {
      const [found] = await tx`select 1 from inbox.conversations where user_id = ${member.workspaceId} and id = ${conversationId}`;
      if (!found) throw notFound(CONVERSATION_NOT_FOUND);
      await tx`delete from inbox.presence where conversation_id = ${conversationId} and (member_id = ${member.id} or viewing_until < ${new Date(now)})`;
      if (body.viewing) {
        const typingUntil = body.typing ? new Date(now + PRESENCE_TYPING_MS) : null;
        await tx`
          insert into inbox.presence (user_id, conversation_id, member_id, member_name, viewing_until, typing_until)
          values (${member.workspaceId}, ${conversationId}, ${member.id}, ${name}, ${new Date(now + PRESENCE_VIEWING_MS)}, ${typingUntil})`;
      }
      return tx<PresenceRow[]>`
        select member_id, member_name, viewing_until, typing_until from inbox.presence
        where conversation_id = ${conversationId} order by member_name, member_id`;
    });
    const state = toPresence(conversationId, presence, now);
    this.deps.signals.presence(member.workspaceId, state);
    return state;
  }

  private async nameOf(member: ActingMember): Promise<string> {
    const key = `${member.workspaceId}/${member.id}`;
    const known = this.names.get(key);
    if (known && this.now() - known.at < NAME_TTL_MS) return known.name;
    const name = (await this.deps.members.list(member.workspaceId)).find((m) => m.userId === member.id)?.name ?? '';
    this.names.set(key, { name, at: this.now() });
    return name;
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }
}

function toPresence(conversationId: string, rows: readonly PresenceRow[], now: number): ConversationPresence {
  const person = (r: PresenceRow, until: Date) => ({ userId: r.memberId, name: r.memberName, until: until.toISOString() });
  return {
    conversationId,
    viewing: rows.filter((r) => r.viewingUntil.getTime() > now).map((r) => person(r, r.viewingUntil)),
    typing: rows.filter((r) => r.typingUntil && r.typingUntil.getTime() > now).map((r) => person(r, r.typingUntil!)),
  };
}
