// One realistic row (or more) in every table the migrations before workspaces made, under an existing account.
import { randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import { type SecretBox } from '@asistente/kit';
import { OPENAI_KEY_COLUMN } from '@asistente/ai';
import { CALDAV_PASSWORD_COLUMN, GOOGLE_ACCESS_TOKEN_COLUMN, GOOGLE_REFRESH_TOKEN_COLUMN } from '@asistente/calendar';
import { EMAIL_CREDENTIALS_COLUMN } from '@asistente/email';
import { MICROSOFT_ACCESS_TOKEN_COLUMN, MICROSOFT_REFRESH_TOKEN_COLUMN } from '@asistente/teams';
import { WEBHOOK_SECRET_COLUMN } from '@asistente/webhooks';
import { WHATSAPP_AUTH_STATE_COLUMN, WHATSAPP_QR_COLUMN } from '@asistente/whatsapp';

/**
 * Seeds every table of the earlier schema under `userId` (an account already in auth.users), parents before
 * children, each insert honouring the table's keys and checks. Four tables fill themselves from these rows, by
 * their triggers: platform.user_sessions (auth.users), contacts.owner_counts (contacts.contacts),
 * email.folder_counts (email.messages) and whatsapp.inbox_totals (whatsapp.chats).
 */
export async function seedEveryTable(sql: postgres.Sql, userId: string, box: SecretBox): Promise<void> {
  const seal = (plaintext: string, secret: { table: string; column: string }) =>
    box.seal(plaintext, { userId, table: secret.table, column: secret.column });
  const id = {
    contact: randomUUID(), export: randomUUID(), deletion: randomUUID(), token: randomUUID(), endpoint: randomUUID(),
    mailbox: randomUUID(), mail: randomUUID(), sent: randomUUID(), chat: randomUUID(), message: randomUUID(),
    event: randomUUID(), burst: randomUUID(),
  };
  const jid = '34600111222@s.whatsapp.net';

  const inserts: ((q: postgres.TransactionSql) => postgres.PendingQuery<postgres.Row[]>)[] = [
    // platform
    (q) => q`insert into platform.revoked_tokens (jti, user_id, expires_at) values (${randomUUID()}, ${userId}, now() + interval '1 hour')`,
    (q) => q`insert into platform.personal_tokens (id, user_id, name, scopes, token_hash, prefix, expires_at, last_used_at)
             values (${id.token}, ${userId}, 'Informe semanal', '{contacts:read,calendar:read}', ${randomUUID()}, 'asis_pat_s', now() + interval '90 days', now())`,
    (q) => q`insert into platform.personal_token_budgets (token_id, window_started_at, used) values (${id.token}, date_trunc('minute', now()), 3)`,
    (q) => q`insert into platform.periodic_jobs (name, period, owner, lease_until, done_at)
             values ('retention', '2026-11-29', 'auth-1', now() + interval '5 minutes', now())`,
    // auth
    (q) => q`insert into auth.password_resets (token_hash, user_id, expires_at) values (${randomUUID()}, ${userId}, now() + interval '1 hour')`,
    (q) => q`insert into auth.security_activity (id, user_id, type, at, ip, user_agent, detail)
             values (${randomUUID()}, ${userId}, 'login', now(), '203.0.113.7', 'Mozilla/5.0', '{"method": "password"}')`,
    (q) => q`insert into auth.account_exports (id, user_id, status, progress, size, expires_at)
             values (${id.export}, ${userId}, 'ready', 100, 5, now() + interval '7 days')`,
    (q) => q`insert into auth.account_export_chunks (export_id, seq, data) values (${id.export}, 0, '\x504b0304ff'::bytea)`,
    (q) => q`insert into auth.account_deletions (id, requested_at) values (${id.deletion}, now())`,
    (q) => q`insert into auth.account_erasure_progress (deletion_id, service, status, problems) values (${id.deletion}, 'contacts', 'done', '[]')`,
    (q) => q`insert into auth.retention (user_id, whatsapp_days, email_body_days, ai_run_days) values (${userId}, 365, 180, 90)`,
    (q) => q`insert into auth.password_failures (key, failed_at) values (${`email:${userId}`}, now())`,
    // contacts
    (q) => q`insert into contacts.contacts (id, user_id, first_name, last_name, email, phone, company, tags, phone_e164, notes)
             values (${id.contact}, ${userId}, 'Marta', 'Ruiz', 'marta@cliente.es', '600 111 222', 'Cliente SL', '{vip}', '+34600111222',
                     'Prefiere WhatsApp')`,
    (q) => q`insert into contacts.saved_views (user_id, name, search, tag, sort, direction) values (${userId}, 'VIP', '', 'vip', 'name', 'asc')`,
    (q) => q`insert into contacts.trash (batch_id, user_id, id, first_name, last_name, email, tags, created_at, updated_at)
             values (${randomUUID()}, ${userId}, ${randomUUID()}, 'Pedro', 'Sanz', 'pedro@antiguo.es', '{}', now() - interval '1 year', now())`,
    // ai
    (q) => q`insert into ai.provider_keys (user_id, provider, api_key_enc, last4)
             values (${userId}, 'openai', ${seal(`sk-${randomUUID()}`, OPENAI_KEY_COLUMN)}, 'wxyz')`,
    (q) => q`insert into ai.assistant_configs (user_id, name, goal, tone, system_prompt, variables, custom_vars, internal_sources, allow_web,
                                               model, temperature, max_tokens, variable_values, auto_reply, max_replies_per_chat_per_day,
                                               daily_budget_usd, can_book_meetings, handoff_phrase)
             values (${userId}, 'Sofía', 'Atender pedidos', 'cercano', 'Eres Sofía, de la panadería.', '{horario}', '{}', '{contacts,calendar}',
                     false, 'gpt-4o-mini', 0.4, 800, '[{"name": "horario", "value": "8 a 14"}]', true, 20, 5, true, 'quiero hablar con una persona')`,
    (q) => q`insert into ai.runs (id, user_id, trigger, chat_id, model, prompt_tokens, completion_tokens, cost_usd, replied)
             values (${randomUUID()}, ${userId}, 'whatsapp', ${jid}, 'gpt-4o-mini', 420, 60, 0.0001, true)`,
    (q) => q`insert into ai.auto_reply_seen (user_id, message_id) values (${userId}, ${id.message})`,
    (q) => q`insert into ai.chat_states (user_id, chat_id, paused, reason) values (${userId}, ${jid}, true, 'owner_takeover')`,
    (q) => q`insert into ai.customer_bookings (user_id, chat_id, day, booked) values (${userId}, ${jid}, current_date, 1)`,
    (q) => q`insert into ai.chat_bursts (id, user_id, chat_id, message_ids, due_at) values (${id.burst}, ${userId}, ${jid}, ${[id.message]}::uuid[], now())`,
    (q) => q`insert into ai.retention (user_id, days, changed_at) values (${userId}, 90, now())`,
    // analytics
    (q) => q`insert into analytics.events (id, user_id, type, occurred_at, data, applied_at)
             values (${id.event}, ${userId}, 'whatsapp.message.received', now(), '{"chatId": "34600111222@s.whatsapp.net"}', now())`,
    (q) => q`insert into analytics.hourly (user_id, metric, hour, value) values (${userId}, 'whatsapp_received', date_trunc('hour', now()), 1)`,
    (q) => q`insert into analytics.totals (user_id, metric, value) values (${userId}, 'whatsapp_received', 1)`,
    (q) => q`insert into analytics.whatsapp_chats (user_id, chat_id, last_seen) values (${userId}, ${jid}, now())`,
    (q) => q`insert into analytics.parked_events (event_id, type, reason, payload)
             values (${randomUUID()}, 'contacts.contact.created', 'unknown version', ${q.json({ userId, version: 9 })})`,
    // whatsapp
    (q) => q`insert into whatsapp.accounts (user_id, wanted, linked, state, qr_enc, phone, name, since)
             values (${userId}, true, false, 'qr', ${seal('2@pairing-ref', WHATSAPP_QR_COLUMN)}, '34600999888', 'Panadería', now())`,
    (q) => q`insert into whatsapp.auth_state (user_id, key, value_enc) values (${userId}, 'creds', ${seal('{"me": {}}', WHATSAPP_AUTH_STATE_COLUMN)})`,
    (q) => q`insert into whatsapp.auto_replies (user_id, keyword, keyword_folded, response) values (${userId}, 'Horario', 'horario', 'De 8 a 14 h.')`,
    (q) => q`insert into whatsapp.chats (id, user_id, jid, name, phone, last_at, last_text, last_direction, unread)
             values (${id.chat}, ${userId}, ${jid}, 'Marta Ruiz', '+34600111222', now(), '¿Abrís mañana?', 'incoming', 1)`,
    (q) => q`insert into whatsapp.messages (id, user_id, chat_id, wa_id, direction, origin, from_jid, to_jid, body, sent_at, status, client_id)
             values (${id.message}, ${userId}, ${id.chat}, 'WA3EB0C1', 'incoming', 'contact', ${jid}, '34600999888@s.whatsapp.net',
                     '¿Abrís mañana?', now(), 'received', null)`,
    (q) => q`insert into whatsapp.contacts (user_id, jid, name, phone) values (${userId}, ${jid}, 'Marta Ruiz', '+34600111222')`,
    (q) => q`insert into whatsapp.retention (user_id, days, changed_at) values (${userId}, 365, now())`,
    // email
    (q) => q`insert into email.accounts (id, user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port,
                                         smtp_secure, smtp_user, credentials_enc, connected, sync_total, sync_stored)
             values (${id.mailbox}, ${userId}, 'imap', 'hola@panaderia.es', 'imap.panaderia.es', 993, true, 'hola@panaderia.es',
                     'smtp.panaderia.es', 465, true, 'hola@panaderia.es', ${seal('{"password": "x"}', EMAIL_CREDENTIALS_COLUMN)}, true, 1, 1)`,
    (q) => q`insert into email.folders (account_id, role, path, uid_validity, last_uid, highest_modseq) values (${id.mailbox}, 'inbox', 'INBOX', 1700000000, 7, 42)`,
    (q) => q`insert into email.messages (id, user_id, account_id, folder, uid, message_id, from_addr, to_addrs, subject, text_body, preview,
                                         is_read, has_attachments, sent_at, body_fetched)
             values (${id.mail}, ${userId}, ${id.mailbox}, 'inbox', 7, '<pedido-7@cliente.es>', 'marta@cliente.es', 'hola@panaderia.es',
                     'Pedido', 'Dos barras, por favor.', 'Dos barras', false, true, now(), true)`,
    (q) => q`insert into email.attachments (message_id, position, name, content_type, size, part) values (${id.mail}, 0, 'pedido.pdf', 'application/pdf', 2048, '2')`,
    (q) => q`insert into email.templates (user_id, name, subject, body) values (${userId}, 'Confirmación', 'Pedido recibido', 'Gracias por su pedido.')`,
    (q) => q`insert into email.sent (id, user_id, account_id, provider, message_id, opened_at) values (${id.sent}, ${userId}, ${id.mailbox}, 'imap', '<r-1@panaderia.es>', now())`,
    (q) => q`insert into email.send_requests (user_id, key, fingerprint, sent_id, state) values (${userId}, ${randomUUID()}, 'sha256:ab12', ${id.sent}, 'sent')`,
    (q) => q`insert into email.login_failures (key, failed_at) values ('imap.panaderia.es:hola@panaderia.es', now())`,
    (q) => q`insert into email.oauth_states_used (id, expires_at) values (${randomUUID()}, now() + interval '10 minutes')`,
    (q) => q`insert into email.retention (user_id, days, changed_at) values (${userId}, 180, now())`,
    // calendar
    (q) => q`insert into calendar.google_accounts (user_id, email, access_token_enc, refresh_token_enc, expires_at, scope)
             values (${userId}, 'panaderia@gmail.com', ${seal('ya29.a', GOOGLE_ACCESS_TOKEN_COLUMN)}, ${seal('1//r', GOOGLE_REFRESH_TOKEN_COLUMN)},
                     now() + interval '1 hour', 'https://www.googleapis.com/auth/calendar')`,
    (q) => q`insert into calendar.calendars (user_id, id, summary, is_primary, access_role, position, sync_token)
             values (${userId}, 'primary', 'Panadería', true, 'owner', 0, 'CPDAlvWDx')`,
    (q) => q`insert into calendar.events (user_id, calendar_id, id, summary, all_day, start_at, end_at, attendees, status, normalized)
             values (${userId}, 'primary', 'evt1', 'Entrega', false, now(), now() + interval '30 minutes', '{marta@cliente.es}', 'confirmed',
                     ${q.json({ id: 'evt1', summary: 'Entrega' })})`,
    (q) => q`insert into calendar.meetings (user_id, calendar_id, event_id, title, start_time, end_time, attendees, status)
             values (${userId}, 'primary', 'evt1', 'Entrega', now(), now() + interval '30 minutes', '{marta@cliente.es}', 'scheduled')`,
    (q) => q`insert into calendar.watch_channels (id, user_id, calendar_id, resource_id, token_hash, expires_at)
             values (${randomUUID()}, ${userId}, 'primary', 'res-1', ${randomUUID()}, now() + interval '7 days')`,
    (q) => q`insert into calendar.oauth_states_used (id, expires_at) values (${randomUUID()}, now() + interval '10 minutes')`,
    (q) => q`insert into calendar.caldav_accounts (user_id, server_url, username, password_enc, root_url, principal_url, home_url)
             values (${userId}, 'https://caldav.icloud.com', 'panaderia@icloud.com', ${seal('app-password', CALDAV_PASSWORD_COLUMN)},
                     'https://caldav.icloud.com/', 'https://caldav.icloud.com/1/principal/', 'https://caldav.icloud.com/1/calendars/')`,
    (q) => q`insert into calendar.caldav_calendars (user_id, id, name, color, position, supports_sync, sync_token)
             values (${userId}, '/1/calendars/home/', 'Casa', '#ff9500', 0, true, 'sync-1')`,
    (q) => q`insert into calendar.caldav_objects (user_id, calendar_id, href, uid, etag, ics, starts_at, ends_at)
             values (${userId}, '/1/calendars/home/', '/1/calendars/home/a.ics', 'a', '"e1"', 'BEGIN:VCALENDAR\r\nEND:VCALENDAR', now(), now() + interval '1 hour')`,
    // teams
    (q) => q`insert into teams.connections (user_id, ms_user_id, display_name, email, access_token_enc, refresh_token_enc, expires_at, scopes)
             values (${userId}, 'ms-1', 'Panadería', 'panaderia@contoso.com', ${seal('eyJ0', MICROSOFT_ACCESS_TOKEN_COLUMN)},
                     ${seal('M.R3', MICROSOFT_REFRESH_TOKEN_COLUMN)}, now() + interval '1 hour', 'ChannelMessage.Read.All')`,
    (q) => q`insert into teams.channels (user_id, channel_id, team_id, name) values (${userId}, '19:abc@thread.tacv2', 'team-1', 'Pedidos')`,
    (q) => q`insert into teams.seen_messages (user_id, message_id) values (${userId}, '1732000000000')`,
    (q) => q`insert into teams.oauth_states_used (id, expires_at) values (${randomUUID()}, now() + interval '10 minutes')`,
    // webhooks
    (q) => q`insert into webhooks.endpoints (id, user_id, url, events, description, secret_enc)
             values (${id.endpoint}, ${userId}, 'https://erp.panaderia.es/hooks', '{whatsapp.message.received}', 'ERP',
                     ${seal(`whsec_${randomUUID()}`, WEBHOOK_SECRET_COLUMN)})`,
    (q) => q`insert into webhooks.deliveries (id, endpoint_id, user_id, event_id, type, body, status, attempts, response_status, latency_ms)
             values (${randomUUID()}, ${id.endpoint}, ${userId}, ${id.event}, 'whatsapp.message.received', '{}', 'delivered', 1, 200, 35)`,
    // Every service's outbox: an event of the account's, already published.
    ...['platform', 'auth', 'contacts', 'ai', 'analytics', 'whatsapp', 'email', 'calendar', 'teams', 'webhooks'].map(
      (schema) => (q: postgres.TransactionSql) => q`insert into ${q(schema)}.outbox (id, type, user_id, occurred_at, data, published_at)
                                         values (${randomUUID()}, ${`${schema}.seeded`}, ${userId}, now(), '{"seeded": true}', now())`,
    ),
  ];
  await sql.begin(async (q) => {
    for (const insert of inserts) await insert(q);
  });
}
