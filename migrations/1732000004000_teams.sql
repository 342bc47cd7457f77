-- Up Migration
create schema if not exists teams;

-- One Microsoft 365 account per user. Both tokens are stored only sealed (AES-256-GCM envelope,
-- AAD = user id + table + column) and rotated by `asistente admin rotate-keys` (SECRET_COLUMNS in
-- packages/kit). The account's Graph id tells the user's own channel messages from received ones.
create table teams.connections (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique,
  ms_user_id text not null,
  display_name text not null default '',
  email text not null default '',
  access_token_enc text not null check (access_token_enc like 'v1:%'),
  refresh_token_enc text check (refresh_token_enc like 'v1:%'),
  expires_at timestamptz not null,
  scopes text not null default '',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Graph addresses channel messages by team AND channel; the API by channel alone. Every channel the user
-- has listed is remembered with its team, so `/teams/channels/:id/messages` finds its team.
create table teams.channels (
  user_id uuid not null,
  channel_id text not null,
  team_id text not null,
  name text not null default '',
  primary key (user_id, channel_id)
);

-- Channel messages from others already counted as received: each one is announced once
-- (teams.message.received), however often the pane polls.
create table teams.seen_messages (
  user_id uuid not null,
  message_id text not null,
  seen_at timestamptz not null default now(),
  primary key (user_id, message_id)
);

select platform.create_outbox('teams');

-- Down Migration
drop schema teams cascade;
