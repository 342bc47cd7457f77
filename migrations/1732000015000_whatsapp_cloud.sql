-- Up Migration
-- WhatsApp's official Cloud API as a second provider of the WhatsApp channel, chosen per workspace.
-- One Cloud number per workspace; phone_number_id is unique because the webhook names the number, not the
-- workspace. The access token is sealed (AAD = workspace + table + column); rotate-keys covers it.
-- drain_owner/drain_until: the replica delivering the workspace's queued sends (one at a time, in order).
create table whatsapp.cloud_accounts (
  user_id uuid primary key,
  phone_number_id text not null unique,
  business_account_id text not null,
  access_token_enc text not null check (access_token_enc like 'v1:%'),
  display_phone text,
  verified_name text,
  quality_rating text,
  connected_at timestamptz not null default now(),
  drain_owner text,
  drain_until timestamptz
);

-- Webhooks accepted (signature checked, number known) and not yet processed: the POST answers as soon as the
-- row is committed and any replica processes it after, claiming it with a lease (a replica that died while
-- processing leaves a lease that runs out; storing the messages again changes nothing: unique ids).
create table whatsapp.cloud_webhooks (
  id bigserial primary key,
  user_id uuid not null,
  payload jsonb not null,
  received_at timestamptz not null default now(),
  claimed_by text,
  claimed_until timestamptz,
  attempts integer not null default 0
);
create index cloud_webhooks_waiting on whatsapp.cloud_webhooks (id) where claimed_by is null;

-- The message ids Meta delivered, kept for a week (Meta retries a webhook for up to 7 days): a retry of a
-- webhook already accepted is answered 200 and not stored again.
create table whatsapp.cloud_message_ids (
  wamid text primary key,
  user_id uuid not null,
  received_at timestamptz not null default now()
);
create index cloud_message_ids_age on whatsapp.cloud_message_ids (received_at);

-- What a Cloud send carries beyond its text: a template (name, language, variables) or an uploaded media id.
alter table whatsapp.messages add column cloud_content jsonb;

-- Down Migration
alter table whatsapp.messages drop column cloud_content;
drop table whatsapp.cloud_message_ids;
drop table whatsapp.cloud_webhooks;
drop table whatsapp.cloud_accounts;
