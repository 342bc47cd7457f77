import type { Sql } from '../db/database.js';

/**
 * Longer than the state's own life: a replica whose clock runs behind still finds the row of a state it
 * would take as unexpired.
 */
const KEEP_AFTER_EXPIRY_MS = 5 * 60_000;

/**
 * The OAuth states already used, in `<schema>.oauth_states_used` (one table per service schema, created by
 * `platform.create_oauth_states_used`): a state is spent by whichever replica sees it first, for all of them.
 */
export class UsedOAuthStates {
  private readonly table: string;

  constructor(
    private readonly sql: Sql,
    schema: string,
  ) {
    this.table = `${schema}.oauth_states_used`;
  }

  /** True only the first time `id` is presented; expired rows are swept on the way. */
  async consume(id: string, expiresAt: number): Promise<boolean> {
    const keepUntil = new Date(expiresAt + KEEP_AFTER_EXPIRY_MS);
    const inserted = await this.sql`
      insert into ${this.sql(this.table)} (id, expires_at) values (${id}, ${keepUntil})
      on conflict (id) do nothing returning id`;
    await this.sql`delete from ${this.sql(this.table)} where expires_at < now()`;
    return inserted.length === 1;
  }
}
