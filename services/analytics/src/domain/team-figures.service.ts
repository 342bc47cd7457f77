import { CONVERSATION_CHANNELS, type TeamFigures, type TeamMemberFigures } from '@asistente/contracts';
import type { Scope } from './analytics.service.js';
import { ASSISTANT } from './openings.js';
import { dayWindow } from './period.js';
import type { FigureRow, TeamFiguresRepository } from './team-figures.repository.js';

/** Whole seconds; null when the period had nothing to take a median of. */
const seconds = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : Math.round(value));

/** The figures of GET /analytics/team: per member, for the assistant and for the whole workspace. */
export class TeamFiguresService {
  constructor(private readonly repository: TeamFiguresRepository) {}

  async figures({ userId, period, tz }: Scope): Promise<TeamFigures> {
    const w = dayWindow(period, tz);
    const [firsts, resolutions, handled, messages, channelFirsts] = await Promise.all([
      this.repository.firstResponses(userId, w),
      this.repository.resolutions(userId, w),
      this.repository.handled(userId, w),
      this.repository.channelMessages(userId, w),
      this.repository.channelFirstResponses(userId, w),
    ]);
    const byWho = (rows: FigureRow[]) => new Map(rows.filter((r) => !r.total && r.who !== null).map((r) => [r.who!, Number(r.value)]));
    const total = (rows: FigureRow[]) => rows.find((r) => r.total)?.value ?? null;
    const first = byWho(firsts);
    const resolution = byWho(resolutions);
    const answered = byWho(handled);

    const ids = new Set([...first.keys(), ...resolution.keys(), ...answered.keys()]);
    ids.delete(ASSISTANT);
    const members: TeamMemberFigures[] = [...ids].map((id) => ({
      userId: id,
      firstResponseSeconds: seconds(first.get(id)),
      resolutionSeconds: seconds(resolution.get(id)),
      handled: answered.get(id) ?? 0,
    }));
    // Most conversations first; ties in a stable order, so two reads list them alike.
    members.sort((a, b) => b.handled - a.handled || (a.userId < b.userId ? -1 : 1));
    return {
      members,
      assistant: { firstResponseSeconds: seconds(first.get(ASSISTANT)), handled: answered.get(ASSISTANT) ?? 0 },
      workspace: { firstResponseSeconds: seconds(total(firsts)), resolutionSeconds: seconds(total(resolutions)), handled: Number(total(handled) ?? 0) },
      channels: CONVERSATION_CHANNELS.map((channel) => {
        const counted = messages.find((m) => m.channel === channel);
        return {
          channel,
          received: counted?.received ?? 0,
          sent: counted?.sent ?? 0,
          firstResponseSeconds: seconds(channelFirsts.find((f) => f.channel === channel)?.value),
        };
      }),
    };
  }
}
