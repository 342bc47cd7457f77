import type { ErasureStatus, UserDeletedEventData } from '@asistente/contracts';
import type { Logger } from 'pino';
import type { Sql, TransactionSql } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import { createEvent, type EventEnvelope } from '../events/envelope.js';
import type { Outbox } from '../events/outbox.js';
import { sweepUserRows, USER_DELETED } from './sweep.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Said in the progress view when a provider step threw instead of reporting its own problem. */
export const PROVIDER_STEP_FAILED = 'No se pudo cerrar la conexión con un proveedor; tus datos se han borrado igualmente';

/**
 * What one service erases of a user when `user.deleted` arrives. Register it with `registerUserErasure`
 * in the service's plugin: a durable consumer of its own (`<service>-user-erasure`) runs it.
 */
export interface UserErasure {
  /** The service's name in the progress view (`contacts`). */
  service: string;
  /**
   * The schemas whose tables with a `user_id` column are swept (the service's own first; its outbox is in
   * it). Default: `[service]`.
   */
  schemas?: readonly string[];
  /**
   * Ends what lives outside the database, before the rows (which hold the grants) are erased: revoke a
   * provider's grant, log a socket out, close an IMAP session. Returns the problems to show (Spanish, no
   * secret); a provider that fails never stops the erasure of our data. Runs again on a redelivery, when
   * the rows may be gone already: nothing left to revoke is no problem.
   */
  disconnect?: (userId: string) => Promise<readonly string[]>;
  /**
   * Erases, in the erasure's transaction, what the sweep cannot find (rows keyed by something else than
   * `user_id`, files), or what must go in a given order. Runs before the sweep. Must be harmless twice.
   */
  erase?: (tx: TransactionSql, userId: string) => Promise<void>;
}

export interface ErasureDeps {
  db: { sql: Sql };
  bus: EventBus;
  log: Logger;
  outbox: (schema: string) => Outbox;
}

/** The durable consumer's name for a service: every replica of the service shares it. */
export const erasureConsumerName = (service: string): string => `${service}-user-erasure`;

/**
 * Subscribes the service's durable erasure consumer. For each `user.deleted`: report `running`, run
 * `disconnect`, then in one transaction run `erase`, sweep every `user_id` table of the schemas and report
 * `done` (with the providers' problems) through the outbox. The bus acknowledges only after that commit,
 * so a process that dies half-way has the event delivered again and the erasure runs again from the top:
 * every step deletes what is left and finds nothing the second time. Reports carry the deletion's id as
 * their userId: they are not rows of the erased user, and auth keeps its "done" for each service.
 */
export async function registerUserErasure(deps: ErasureDeps, erasure: UserErasure): Promise<UserErasureConsumer> {
  const consumer = new UserErasureConsumer(deps, erasure);
  await deps.bus.subscribe(erasureConsumerName(erasure.service), consumer.handle);
  return consumer;
}

export class UserErasureConsumer {
  private readonly schemas: readonly string[];
  private readonly outbox: Outbox;

  constructor(
    private readonly deps: ErasureDeps,
    private readonly erasure: UserErasure,
  ) {
    this.schemas = erasure.schemas ?? [erasure.service];
    this.outbox = deps.outbox(this.schemas[0]!);
  }

  handle = async (events: EventEnvelope[]): Promise<void> => {
    // Whatever arrives on the bus is read with care: one malformed event must not stop the erasures.
    for (const event of events as (Partial<EventEnvelope> | null)[]) {
      if (event?.type !== USER_DELETED) continue;
      const deletionId = (event.data as Partial<UserDeletedEventData> | null)?.deletionId;
      if (typeof deletionId !== 'string' || !UUID.test(deletionId) || typeof event.userId !== 'string' || !UUID.test(event.userId)) {
        this.deps.log.warn({ eventId: event.id }, 'invalid user.deleted event skipped');
        continue;
      }
      await this.eraseUser(event.userId, deletionId);
    }
  };

  /** Erases one user; exported through `handle`, callable directly by tests and benches. */
  async eraseUser(userId: string, deletionId: string): Promise<number> {
    const { sql } = this.deps.db;
    const started = Date.now();
    await sql.begin((tx) => this.report(tx, deletionId, 'running', []));
    const problems = await this.disconnect(userId);
    const deleted = await sql.begin(async (tx) => {
      await tx`set local statement_timeout = 0`;
      await this.erasure.erase?.(tx, userId);
      const count = await sweepUserRows(tx, this.schemas, userId);
      await this.report(tx, deletionId, 'done', problems);
      return count;
    });
    this.deps.log.info({ deletionId, service: this.erasure.service, rows: deleted, ms: Date.now() - started, problems: problems.length }, 'user erased');
    return deleted;
  }

  private async disconnect(userId: string): Promise<string[]> {
    if (!this.erasure.disconnect) return [];
    try {
      return [...(await this.erasure.disconnect(userId))];
    } catch (error) {
      this.deps.log.warn({ err: error, service: this.erasure.service }, 'provider disconnect failed during erasure');
      return [PROVIDER_STEP_FAILED];
    }
  }

  private report(tx: TransactionSql, deletionId: string, status: ErasureStatus, problems: string[]): Promise<void> {
    const event = createEvent('account.erasure.progressed', deletionId, { deletionId, service: this.erasure.service, status, problems });
    return this.outbox.append(tx, [event]);
  }
}
