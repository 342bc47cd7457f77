import { FOREVER, type RetentionSettings } from '@asistente/contracts';
import { createEvent, type Outbox, type Sql } from '@asistente/kit';

/**
 * The owner's retention settings (auth.retention; no row keeps everything forever). A change is written
 * with its `account.retention.changed` event in one transaction: whatsapp, email and ai keep their copies
 * from it and apply it in their daily job.
 */
export class RetentionService {
  constructor(
    private readonly sql: Sql,
    private readonly outbox: Outbox,
  ) {}

  async get(userId: string): Promise<RetentionSettings> {
    const [row] = await this.sql<RetentionSettings[]>`
      select whatsapp_days, email_body_days, ai_run_days from auth.retention where user_id = ${userId}`;
    return row ?? FOREVER;
  }

  async set(userId: string, settings: RetentionSettings): Promise<RetentionSettings> {
    const { whatsappDays, emailBodyDays, aiRunDays } = settings;
    await this.sql.begin(async (tx) => {
      await tx`
        insert into auth.retention (user_id, whatsapp_days, email_body_days, ai_run_days, updated_at)
        values (${userId}, ${whatsappDays}, ${emailBodyDays}, ${aiRunDays}, now())
        on conflict (user_id) do update set whatsapp_days = excluded.whatsapp_days, email_body_days = excluded.email_body_days,
          ai_run_days = excluded.ai_run_days, updated_at = excluded.updated_at`;
      await this.outbox.append(tx, [createEvent('account.retention.changed', userId, { whatsappDays, emailBodyDays, aiRunDays })]);
    });
    return { whatsappDays, emailBodyDays, aiRunDays };
  }
}
