-- Up Migration
create schema if not exists webhooks;
-- The service publishes nothing of its own today; the outbox is where its account-erasure reports go.
select platform.create_outbox('webhooks');

-- A user's outbound webhook endpoints (at most 10 each, enforced by the service under a per-user lock).
-- The signing secret is sealed with the key ring (AAD binds user, table and column), never stored plain.
create table webhooks.endpoints (
  id uuid primary key,
  user_id uuid not null,
  url text not null,
  events text[] not null,
  description text not null default '',
  secret_enc text not null,
  enabled boolean not null default true,
  -- Why it is disabled: by its owner, or after a day of failed deliveries (shown on its card).
  disabled_reason text,
  -- First failure since the last success; a day of it disables the endpoint.
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhooks_endpoints_user on webhooks.endpoints (user_id, created_at);

-- One row per (event, endpoint): the unique key makes a redelivered event add nothing (at least once in,
-- exactly one delivery row out). `body` is the exact JSON signed and sent on every attempt.
-- Dispatchers claim due rows with FOR UPDATE SKIP LOCKED and move next_attempt_at past the send (a lease),
-- so at N replicas one sends each; `claim_id` lets only the claimant record the outcome.
create table webhooks.deliveries (
  id uuid primary key,
  endpoint_id uuid not null references webhooks.endpoints (id) on delete cascade,
  user_id uuid not null,
  event_id uuid not null,
  type text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  response_status integer,
  latency_ms integer,
  error text,
  next_attempt_at timestamptz,
  claim_id uuid,
  last_attempt_at timestamptz,
  created_at timestamptz not null default now(),
  unique (event_id, endpoint_id)
);
create index webhooks_deliveries_due on webhooks.deliveries (next_attempt_at) where status = 'pending';
create index webhooks_deliveries_log on webhooks.deliveries (endpoint_id, created_at desc);
create index webhooks_deliveries_age on webhooks.deliveries (created_at);

-- Down Migration
drop schema webhooks cascade;
