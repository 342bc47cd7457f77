import { randomUUID } from 'node:crypto';
import type { Sql } from '@asistente/kit';
import type { EntryRow } from './entries.repository.js';
import type { Member } from './members-directory.js';

export interface NewNote {
  workspaceId: string;
  conversationId: string;
  authorId: string;
  authorName: string | null;
  text: string;
  members: readonly Member[];
}

export interface MentionRow {
  id: string;
  conversationId: string;
  entryId: string;
  byName: string | null;
  text: string;
  at: Date;
  seen: boolean;
}

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The members a note names with `@`: by their full name or their first name, accents and case aside, where
 * the name ends at a word's end (`@Ana` names Ana, not Anabel).
 */
export function mentioned(text: string, members: readonly Member[]): string[] {
  const folded = fold(text);
  return members
    .filter((m) => {
      const names = [m.name, m.name.split(/\s+/)[0] ?? ''].filter((n) => n.length > 0).map(fold);
      return names.some((name) => {
        for (let at = folded.indexOf(`@${name}`); at >= 0; at = folded.indexOf(`@${name}`, at + 1)) {
          const next = folded[at + name.length + 1];
          if (next === undefined || !/[\p{L}\p{N}]/u.test(next)) return true;
        }
        return false;
      });
    })
    .map((m) => m.userId);
}

/** Notes and the mentions they make (inbox.entries of kind note, inbox.mentions). */
export class Mentions {
  constructor(private readonly sql: Sql) {}

  async addNote(note: NewNote): Promise<EntryRow> {
    const named = mentioned(note.text, note.members).filter((id) => id !== note.authorId);
    return this.sql.begin(async (tx) => {
      const [entry] = await tx<EntryRow[]>`
        insert into inbox.entries (id, user_id, conversation_id, kind, direction, author, author_id, author_name, body, at)
        values (${randomUUID()}, ${note.workspaceId}, ${note.conversationId}, 'note', null, 'member', ${note.authorId}, ${note.authorName}, ${note.text}, now())
        returning id, conversation_id, kind, direction, author, author_id, author_name, body, channel_message_id, at, seq`;
      if (named.length > 0) {
        const rows = named.map((memberId) => ({ id: randomUUID(), userId: note.workspaceId, entryId: entry!.id, memberId }));
        await tx`insert into inbox.mentions ${tx(rows, 'id', 'userId', 'entryId', 'memberId')}`;
      }
      return entry!;
    });
  }

  /** The notes that named `memberId`, newest first. */
  list(workspaceId: string, memberId: string, limit = 50): Promise<MentionRow[]> {
    return this.sql<MentionRow[]>`
      select m.id, e.conversation_id, e.id as entry_id, e.author_name as by_name, e.body as text, e.at, m.seen_at is not null as seen
      from inbox.mentions m join inbox.entries e on e.id = m.entry_id
      where m.user_id = ${workspaceId} and m.member_id = ${memberId}
      order by e.at desc limit ${limit}`;
  }

  /** Opening a conversation sees the mentions of the member in it. */
  async seen(workspaceId: string, memberId: string, conversationId: string): Promise<void> {
    await this.sql`
      update inbox.mentions m set seen_at = now() from inbox.entries e
      where e.id = m.entry_id and e.conversation_id = ${conversationId} and m.user_id = ${workspaceId} and m.member_id = ${memberId} and m.seen_at is null`;
  }
}
