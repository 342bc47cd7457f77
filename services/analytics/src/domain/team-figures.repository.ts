import type { Sql } from '@asistente/kit';
import { ASSISTANT } from './openings.js';
import type { DayWindow } from './rollups.repository.js';

/**
 * One figure per member, per ASSISTANT (where it applies) and for the whole workspace (`who` null and `total`
 * true). `who` null with `total` false gathers what nobody is credited with (the phone's answers, a resolution
 * with no assignee nor resolver): it counts in the total only.
 */
export interface FigureRow {
  total: boolean;
  who: string | null;
  value: number;
}

/** The team's figures of a period, read from the per-conversation rows (never from the event history). */
export class TeamFiguresRepository {
  constructor(private readonly sql: Sql) {}

  private windowStart(w: DayWindow) {
    return this.sql`(${w.startDay}::date::timestamp at time zone ${w.tz})`;
  }

  /** Median seconds from opening to first answer, over the first answers given in the window. */
  firstResponses(userId: string, w: DayWindow): Promise<FigureRow[]> {
    return this.sql<FigureRow[]>`
      select grouping(who) = 1 as total, who, percentile_cont(0.5) within group (order by seconds) as value
      from (
        select case when first_answer_author = 'member' then first_answer_member::text
                    when first_answer_author in ('assistant', 'keyword') then ${ASSISTANT} end as who,
               extract(epoch from first_answer_at - opened_at)::float8 as seconds
        from analytics.conversation_openings
        where user_id = ${userId} and first_answer_at >= ${this.windowStart(w)}
      ) as answered
      group by grouping sets ((who), ())`;
  }

  /** Median seconds from opening to resolved, over the resolutions in the window, each credited to its assignee, else its resolver. */
  resolutions(userId: string, w: DayWindow): Promise<FigureRow[]> {
    return this.sql<FigureRow[]>`
      select grouping(who) = 1 as total, who, percentile_cont(0.5) within group (order by seconds) as value
      from (
        select coalesce(assignee_id, resolved_by)::text as who, extract(epoch from resolved_at - opened_at)::float8 as seconds
        from analytics.conversation_openings
        where user_id = ${userId} and resolved_at >= ${this.windowStart(w)}
      ) as resolved
      group by grouping sets ((who), ())`;
  }

  /** Per channel: the live customer messages and the messages sent in the window (the events' own channel). */
  channelMessages(userId: string, w: DayWindow): Promise<{ channel: string; received: number; sent: number }[]> {
    return this.sql<{ channel: string; received: number; sent: number }[]>`
      select data->>'channel' as channel,
             (count(*) filter (where type = 'conversation.message.received' and coalesce((data->>'live')::boolean, true)))::int as received,
             (count(*) filter (where type = 'conversation.message.sent'))::int as sent
      from analytics.events
      where user_id = ${userId} and type in ('conversation.message.received', 'conversation.message.sent') and occurred_at >= ${this.windowStart(w)}
      group by 1`;
  }

  /**
   * Median seconds from opening to first answer per channel. A conversation has one channel, which its messages'
   * events name (a reopening by a status change names none, so it is read from any of them).
   */
  channelFirstResponses(userId: string, w: DayWindow): Promise<{ channel: string; value: number }[]> {
    return this.sql<{ channel: string; value: number }[]>`
      select c.channel, percentile_cont(0.5) within group (order by extract(epoch from o.first_answer_at - o.opened_at)::float8) as value
      from analytics.conversation_openings o
      join lateral (
        select data->>'channel' as channel from analytics.events
        where user_id = o.user_id and type like 'conversation.%' and type like 'conversation.message.%' and data->>'conversationId' = o.conversation_id::text
        limit 1
      ) c on true
      where o.user_id = ${userId} and o.first_answer_at >= ${this.windowStart(w)}
      group by 1`;
  }

  /** Conversations answered in the window, per answerer and (each once) in all. */
  handled(userId: string, w: DayWindow): Promise<FigureRow[]> {
    return this.sql<FigureRow[]>`
      select grouping(answerer) = 1 as total, answerer as who, count(distinct conversation_id)::int as value
      from analytics.conversation_answerers
      where user_id = ${userId} and last_answered_at >= ${this.windowStart(w)}
      group by grouping sets ((answerer), ())`;
  }
}
