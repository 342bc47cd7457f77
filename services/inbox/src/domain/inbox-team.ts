import type { ConversationMentionList, InboxMemberList, InboxSettings, UpdateInboxSettingsBody } from '@asistente/contracts';
import type { ActingMember } from '@asistente/kit';
import type { ConversationsRepository } from './conversations.repository.js';
import type { InboxSettingsRepository } from './inbox-settings.repository.js';
import type { MembersDirectory } from './members-directory.js';
import type { Mentions } from './mentions.js';

/** The team around the inbox: its rules, who is available and carries what, and the notes that named someone. */
export class InboxTeam {
  constructor(
    private readonly deps: { settings: InboxSettingsRepository; conversations: ConversationsRepository; members: MembersDirectory; mentions: Mentions },
  ) {}

  settings(workspaceId: string): Promise<InboxSettings> {
    return this.deps.settings.get(workspaceId);
  }

  updateSettings(workspaceId: string, patch: UpdateInboxSettingsBody): Promise<InboxSettings> {
    return this.deps.settings.update(workspaceId, patch);
  }

  async members(workspaceId: string): Promise<InboxMemberList> {
    const [members, away, open] = await Promise.all([
      this.deps.members.list(workspaceId),
      this.deps.settings.away(workspaceId),
      this.deps.conversations.openPerMember(workspaceId),
    ]);
    return { data: members.map((m) => ({ userId: m.userId, name: m.name, role: m.role, available: !away.has(m.userId), open: open.get(m.userId) ?? 0 })) };
  }

  async setAvailable(member: ActingMember, available: boolean): Promise<{ available: boolean }> {
    await this.deps.settings.setAvailable(member.workspaceId, member.id, available);
    return { available };
  }

  async mentions(member: ActingMember): Promise<ConversationMentionList> {
    const rows = await this.deps.mentions.list(member.workspaceId, member.id);
    return { data: rows.map((r) => ({ ...r, at: r.at.toISOString() })) };
  }
}
