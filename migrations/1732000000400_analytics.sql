-- Up Migration
create schema if not exists analytics;

-- Every event the consumer applied, once: the primary key is the
-- idempotency check (inserted in the same transaction as the rollup
-- update), and the table is the history a rebuild recomputes from.
-- Queries for the screens never read it, except the few latest rows of a
-- user for the dashboard's recent activity.
create table analytics.events (
  id uuid primary key,
  user_id uuid not null,
  type text not null,
  occurred_at timestamptz not null,
  data jsonb not null,
  applied_at timestamptz not null default now()
);
create index analytics_events_recent on analytics.events (user_id, occurred_at desc);

-- Counters per user, metric and UTC hour. Hours (not days) so a request can
-- group them into the calendar days of its own time zone.
create table analytics.hourly (
  user_id uuid not null,
  metric text not null,
  hour timestamptz not null,
  value bigint not null,
  primary key (user_id, metric, hour)
);

-- All-time sum per user and metric, updated with the hourly counters, so a
-- running total (the number of contacts) is one row, not a year of hours.
create table analytics.totals (
  user_id uuid not null,
  metric text not null,
  value bigint not null,
  primary key (user_id, metric)
);

-- Last time each WhatsApp conversation was active: "active contacts" of a
-- period ending now is a count of rows seen since its start.
create table analytics.whatsapp_chats (
  user_id uuid not null,
  chat_id text not null,
  last_seen timestamptz not null,
  primary key (user_id, chat_id)
);
create index analytics_whatsapp_chats_seen on analytics.whatsapp_chats (user_id, last_seen);

-- Events that failed validation: kept for inspection, counted, never applied.
create table analytics.parked_events (
  seq bigserial primary key,
  event_id text,
  type text,
  reason text not null,
  payload jsonb not null,
  parked_at timestamptz not null default now()
);

-- Down Migration
drop schema analytics cascade;
