import type { Sql } from '../db/database.js';
import { AppError, badRequest, unauthorized } from '../http/errors.js';

/** The length of a token's budget window: `RATE_LIMIT_TOKEN_MAX` is requests per minute. */
export const TOKEN_BUDGET_WINDOW_SECONDS = 60;

/** A row's key whose token was deleted while a request was under way (revoked, or its owner gone). */
const FOREIGN_KEY_VIOLATION = '23503';

/** What is left of the token's window after a spend: the `x-ratelimit-*` headers. */
export interface BudgetLeft {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface SpendRow {
  granted: boolean;
  used: number;
  resetSeconds: number;
}

/**
 * A personal token's requests per minute, counted in PostgreSQL (`platform.personal_token_budgets`): the
 * gateway spends one per request, the MCP server the other calls of a JSON-RPC batch, and every replica of
 * either counts in the same row, so the limit holds exactly at N replicas. A spend that does not fit whole
 * spends nothing: a batch too large for what is left is refused, and the calls it did not make stay usable.
 */
export class PersonalTokenBudget {
  constructor(
    private readonly sql: Sql,
    readonly perWindow: number,
    private readonly windowSeconds = TOKEN_BUDGET_WINDOW_SECONDS,
  ) {}

  /**
   * Spends `calls` of the token's window, or throws 429 (with Retry-After, in Spanish) and spends nothing.
   * `batch`: the calls are the rest of a batch of that many whose first was spent already (the Spanish names
   * the batch the caller sent, and a batch larger than a whole window is refused as never fitting).
   */
  async spend(tokenId: string, calls = 1, batch?: number): Promise<BudgetLeft> {
    if (!Number.isInteger(calls) || calls < 1) throw new RangeError(`calls must be a positive integer, got ${calls}`);
    const sent = batch ?? calls;
    if (sent > this.perWindow) throw batchTooLarge(sent, this.perWindow);
    const row = await this.spendRow(tokenId, calls);
    const resetSeconds = Math.max(1, row?.resetSeconds ?? this.windowSeconds);
    if (row?.granted) return { limit: this.perWindow, remaining: Math.max(0, this.perWindow - row.used), resetSeconds };
    throw budgetSpent(sent, this.perWindow, Math.max(0, this.perWindow - (row?.used ?? this.perWindow)), resetSeconds);
  }

  /**
   * One statement: a window over (or none yet) starts again with these calls; a live one takes them only if
   * they fit, and otherwise is read back as it is, for the refusal's numbers. The database's clock decides,
   * so replicas whose clocks differ still agree on when a minute ends.
   */
  private async spendRow(tokenId: string, calls: number): Promise<SpendRow | undefined> {
    const seconds = this.windowSeconds;
    try {
      const [row] = await this.sql<SpendRow[]>`
        with spent as (
          insert into platform.personal_token_budgets as b (token_id, window_started_at, used)
          values (${tokenId}, now(), ${calls})
          on conflict (token_id) do update set
            window_started_at = case when b.window_started_at <= now() - make_interval(secs => ${seconds}) then now() else b.window_started_at end,
            used = case when b.window_started_at <= now() - make_interval(secs => ${seconds}) then excluded.used else b.used + excluded.used end
          where b.window_started_at <= now() - make_interval(secs => ${seconds}) or b.used + excluded.used <= ${this.perWindow}
          returning used, window_started_at
        )
        select true as granted, used, ceil(extract(epoch from window_started_at + make_interval(secs => ${seconds}) - now()))::int as reset_seconds
        from spent
        union all
        select false, used, ceil(extract(epoch from window_started_at + make_interval(secs => ${seconds}) - now()))::int
        from platform.personal_token_budgets
        where token_id = ${tokenId} and not exists (select from spent)`;
      return row;
    } catch (error) {
      // The token was deleted since it was looked up: it is refused as the next request's lookup would refuse it.
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) throw unauthorized(PERSONAL_TOKEN_GONE);
      throw error;
    }
  }
}

export const PERSONAL_TOKEN_GONE = 'El token de acceso no es válido, ha caducado o fue revocado';

function budgetSpent(sent: number, limit: number, remaining: number, retryAfterSeconds: number): AppError {
  const wait = `Vuelve a intentarlo en ${retryAfterSeconds} s`;
  const message =
    sent === 1
      ? `Este token de acceso ya hizo sus ${limit} peticiones de este minuto. ${wait}.`
      : `Este lote de ${sent} llamadas no cabe en lo que le queda a este token en este minuto (${remaining} de ${limit}). ${wait} o envía lotes más pequeños.`;
  const error = new AppError(429, 'RATE_LIMITED', message);
  error.headers = { 'retry-after': String(retryAfterSeconds), 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining), 'x-ratelimit-reset': String(retryAfterSeconds) };
  return error;
}

/** A batch larger than a whole window never fits: waiting would not help, so it is no 429. */
function batchTooLarge(calls: number, limit: number): AppError {
  return badRequest(`Este lote de ${calls} llamadas supera el límite del token (${limit} por minuto): divídelo en lotes más pequeños.`, 'BATCH_OVER_TOKEN_LIMIT');
}
