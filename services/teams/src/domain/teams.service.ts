import type { TeamsChannel, TeamsMessage, TeamsTeam } from '@asistente/contracts';
import { badRequest, createEvent, notFound, type Outbox, type Sql } from '@asistente/kit';
import type { ChannelsRepository } from './channels.repository.js';
import type { ConnectionService, UserGraph } from './connection.service.js';
import { viaGraph } from './graph-errors.js';
import { htmlToText } from './html-text.js';
import type { GraphChatMessage } from './microsoft-graph.js';
import { RecentlySeen } from './recently-seen.js';

const CHANNEL_GONE = 'El canal ya no existe en Microsoft Teams o ya no eres miembro.';
const TEAM_GONE = 'El equipo ya no existe en Microsoft Teams o ya no eres miembro.';
/** Member counts are one Graph call per team or channel: a few at a time, not all at once. */
const COUNT_CONCURRENCY = 4;

async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function author(message: GraphChatMessage): string {
  return message.from?.user?.displayName ?? message.from?.application?.displayName ?? 'Desconocido';
}

/** Teams, channels and channel messages of the connected account. */
export class TeamsService {
  private readonly seen = new RecentlySeen();

  constructor(
    private readonly sql: Sql,
    private readonly connection: ConnectionService,
    private readonly channels: ChannelsRepository,
    private readonly outbox: Outbox,
  ) {}

  async teams(userId: string): Promise<TeamsTeam[]> {
    const { graph } = await this.connection.graphFor(userId);
    const teams = await viaGraph(() => graph.joinedTeams());
    return viaGraph(() =>
      mapLimited(teams, COUNT_CONCURRENCY, async (team) => ({
        id: team.id ?? '',
        name: team.displayName ?? '(sin nombre)',
        memberCount: await graph.teamMemberCount(team.id ?? ''),
      })),
    );
  }

  async teamChannels(userId: string, teamId: string): Promise<TeamsChannel[]> {
    const { graph } = await this.connection.graphFor(userId);
    const channels = await viaGraph(() => graph.channels(teamId), { notFound: TEAM_GONE });
    const listed = channels.map((c) => ({ id: c.id ?? '', name: c.displayName ?? '(sin nombre)', type: c.membershipType ?? 'standard' }));
    await this.channels.remember(userId, teamId, listed);
    return viaGraph(
      () => mapLimited(listed, COUNT_CONCURRENCY, async (c) => ({ ...c, memberCount: await graph.channelMemberCount(teamId, c.id) })),
      { notFound: TEAM_GONE },
    );
  }

  /**
   * The channel's newest messages, oldest first as a conversation reads. Messages by others seen here for
   * the first time are announced once as teams.message.received.
   */
  async messages(userId: string, channelId: string, limit: number): Promise<TeamsMessage[]> {
    const { graph, msUserId, teamId } = await this.channelGraph(userId, channelId);
    const raw = await this.gone(userId, channelId, () => graph.channelMessages(teamId, channelId, limit));
    const messages = raw
      .filter((m) => m.messageType === undefined || m.messageType === 'message')
      .filter((m) => !m.deletedDateTime)
      .map((m) => ({
        id: m.id ?? '',
        author: author(m),
        content: htmlToText(m.body?.content ?? '', m.body?.contentType),
        createdAt: m.createdDateTime ?? '',
        mine: m.from?.user?.id === msUserId,
      }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    await this.announceReceived(userId, channelId, messages.filter((m) => !m.mine).map((m) => m.id));
    return messages;
  }

  async post(userId: string, channelId: string, text: string): Promise<TeamsMessage> {
    const message = text.trim();
    if (!message) throw badRequest('El mensaje no puede estar vacío', 'MESSAGE_EMPTY');
    const { graph, teamId } = await this.channelGraph(userId, channelId);
    const sent = await this.gone(userId, channelId, () => graph.postChannelMessage(teamId, channelId, message));
    const id = sent.id ?? '';
    await this.sql.begin(async (tx) => {
      await this.channels.markSeen(tx, userId, [id]);
      await this.outbox.append(tx, [createEvent('teams.message.sent', userId, { messageId: id, channelId })]);
    });
    return {
      id,
      author: author(sent),
      content: htmlToText(sent.body?.content ?? message, sent.body?.contentType ?? 'text'),
      createdAt: sent.createdDateTime ?? new Date().toISOString(),
      mine: true,
    };
  }

  private async announceReceived(userId: string, channelId: string, ids: string[]): Promise<void> {
    const unknown = this.seen.unknown(userId, ids);
    if (unknown.length === 0) return;
    const candidates = await this.channels.unseen(userId, unknown);
    if (candidates.length > 0) {
      await this.sql.begin(async (tx) => {
        // Marking is the arbiter: of two concurrent polls, only one inserts (and announces) each id.
        const fresh = await this.channels.markSeen(tx, userId, candidates);
        await this.outbox.append(tx, fresh.map((messageId) => createEvent('teams.message.received', userId, { messageId, channelId })));
      });
    }
    this.seen.add(userId, unknown);
  }

  /** The user's Graph and the channel's team, read together (one query per message poll). */
  private async channelGraph(userId: string, channelId: string): Promise<UserGraph & { teamId: string }> {
    const { teamId, ...user } = await this.connection.graphFor(userId, channelId);
    if (!teamId) throw notFound('Canal no encontrado: abre primero su equipo en la pantalla de Teams.');
    return { ...user, teamId };
  }

  /** A channel Graph says is gone is forgotten here too. */
  private async gone<T>(userId: string, channelId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await viaGraph(call, { notFound: CHANNEL_GONE });
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) await this.channels.forget(userId, channelId);
      throw error;
    }
  }
}
