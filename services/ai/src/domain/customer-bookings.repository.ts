import type { Sql } from '@asistente/kit';

/** Today in UTC, as the runs' daily caps count it. */
const TODAY = "(now() at time zone 'UTC')::date";

/** `ai.customer_bookings`: how many meetings the assistant booked per chat and UTC day. */
export class CustomerBookingsRepository {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes one of the chat's bookings of today, atomically: true when it was under `limit` (now counted),
   * false when the cap was reached. Concurrent reservations of one chat queue on its row.
   */
  async reserve(userId: string, chatId: string, limit: number): Promise<boolean> {
    const rows = await this.sql`
      insert into ai.customer_bookings (user_id, chat_id, day, booked)
      values (${userId}, ${chatId}, ${this.sql.unsafe(TODAY)}, 1)
      on conflict (user_id, chat_id, day) do update set booked = ai.customer_bookings.booked + 1
        where ai.customer_bookings.booked < ${limit}
      returning booked`;
    return rows.length > 0;
  }

  /** Gives back a reservation whose meeting was not created (the calendar refused or failed). */
  async release(userId: string, chatId: string): Promise<void> {
    await this.sql`
      update ai.customer_bookings set booked = booked - 1
      where user_id = ${userId} and chat_id = ${chatId} and day = ${this.sql.unsafe(TODAY)} and booked > 0`;
  }
}
