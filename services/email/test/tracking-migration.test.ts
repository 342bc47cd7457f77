import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';

/**
 * Tracking is the owner's informed choice: the accounts connected before the switch was explained, which had
 * it on without a choice, go off; those connected since keep what their owners chose.
 */
const MIGRATION = new URL('../../../migrations/1732000011450_email_tracking_off_for_earlier_accounts.sql', import.meta.url);
const up = readFileSync(MIGRATION, 'utf8').split('-- Down Migration')[0]!;

const platform = await createTestPlatform(t);
const sql = platform.db.sql;

async function account(createdAt: string, tracking: boolean): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc, connected, track_default, created_at)
    values (${randomUUID()}, 'imap', ${`${randomUUID()}@ejemplo.es`}, 'imap.ejemplo.es', 993, true, 'ana', 'smtp.ejemplo.es', 465, true, 'ana', 'v1:k:iv:ct:tag', false, ${tracking}, ${createdAt})
    returning id`;
  return row!.id;
}

t.test('tracking goes off on accounts that had it on before it was a choice; later choices are kept', async (t) => {
  const earlier = await account('2026-10-01T10:00:00Z', true);
  const earlierOff = await account('2026-10-02T10:00:00Z', false);
  const chosenOn = await account('2026-11-27T10:00:00Z', true);
  const chosenOff = await account('2026-11-27T11:00:00Z', false);
  await sql.unsafe(up);
  const tracking = async (id: string) => (await sql<{ on: boolean }[]>`select track_default as on from email.accounts where id = ${id}`)[0]!.on;
  t.equal(await tracking(earlier), false, 'connected before: off');
  t.equal(await tracking(earlierOff), false, 'connected before and already off: off');
  t.equal(await tracking(chosenOn), true, 'turned on by its owner since: on');
  t.equal(await tracking(chosenOff), false, 'left off since: off');
});
