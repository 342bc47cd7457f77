-- Up Migration
create schema if not exists whatsapp;

-- One WhatsApp account per user: the connection as the socket owner last saw it (any replica answers
-- /status from here), what the user asked for (`wanted`), and the lease that names the one replica allowed to
-- hold the socket. qr_enc is sealed: the QR string carries the pairing's secret key material.
create table whatsapp.accounts (
  user_id uuid primary key,
  wanted boolean not null default false,
  linked boolean not null default false,
  state text not null default 'disconnected'
    check (state in ('disconnected', 'connecting', 'qr', 'connected', 'logged_out', 'error')),
  qr_enc text check (qr_enc like 'v1:%'),
  phone text,
  name text,
  since timestamptz not null default now(),
  last_event_at timestamptz,
  error text,
  region text not null default 'ES',
  reconnects_at timestamptz[] not null default '{}',
  decrypt_failures integer not null default 0,
  lease_owner text,
  lease_until timestamptz,
  updated_at timestamptz not null default now()
);

-- Baileys' auth state, one row per key ('creds', 'pre-key-12', 'session-…'): upserted key by key, never a
-- whole-blob rewrite. value_enc is a sealed envelope (AAD = user + table + column); rotate-keys covers it.
create table whatsapp.auth_state (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  key text not null,
  value_enc text not null check (value_enc like 'v1:%'),
  updated_at timestamptz not null default now(),
  unique (user_id, key)
);

-- A conversation. jid is the phone JID when known (…@s.whatsapp.net), else the @lid; lid keeps the @lid
-- beside it, so both forms of one person land here.
create table whatsapp.chats (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  jid text not null,
  lid text,
  name text,
  phone text,
  is_group boolean not null default false,
  last_at timestamptz,
  last_text text,
  last_direction text check (last_direction in ('incoming', 'outgoing')),
  unread integer not null default 0,
  unique (user_id, jid)
);
create unique index chats_user_lid on whatsapp.chats (user_id, lid) where lid is not null;
create index chats_user_recent on whatsapp.chats (user_id, last_at desc nulls last, id);

-- Contacts as WhatsApp announces them (name book, push names), for the contact sync.
create table whatsapp.contacts (
  user_id uuid not null,
  jid text not null,
  name text,
  phone text,
  primary key (user_id, jid)
);

-- Messages, unique per account + WhatsApp message id. Outgoing rows are stored before they are sent
-- (status pending) with the id they will travel with, so a resend or the echo of our own message is the
-- same row. seq orders delivery.
create table whatsapp.messages (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  chat_id uuid not null references whatsapp.chats (id) on delete cascade,
  wa_id text not null,
  seq bigserial not null,
  direction text not null check (direction in ('incoming', 'outgoing')),
  origin text not null check (origin in ('app', 'phone', 'keyword', 'ai', 'contact')),
  from_jid text not null,
  to_jid text not null,
  body text not null default '',
  media jsonb,
  sent_at timestamptz not null,
  status text not null check (status in ('pending', 'sent', 'delivered', 'read', 'failed', 'received')),
  auto_reply_id uuid,
  attempts integer not null default 0,
  -- Its whatsapp.message.sent event is written (once, whichever of the send and WhatsApp's receipt lands first).
  announced boolean not null default false,
  error text,
  unique (user_id, wa_id)
);
create index messages_chat_recent on whatsapp.messages (chat_id, sent_at desc, seq desc);
create index messages_user_pending on whatsapp.messages (user_id, seq) where status = 'pending';
create index messages_user_recent on whatsapp.messages (user_id, sent_at desc);

-- Keyword rules. keyword_folded (lower case, no accents) carries the uniqueness.
create table whatsapp.auto_replies (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  keyword text not null check (char_length(keyword) between 1 and 100),
  keyword_folded text not null,
  response text not null check (char_length(response) between 1 and 4096),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  unique (user_id, keyword_folded)
);

select platform.create_outbox('whatsapp');

-- Down Migration
drop schema whatsapp cascade;
