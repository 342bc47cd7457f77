-- Up Migration
create schema if not exists ai;

-- A user's provider API keys. The key is stored only sealed (AES-256-GCM envelope
-- `v1:<keyId>:<iv>:<ciphertext>:<tag>`, AAD = user id + 'ai.provider_keys' + 'api_key_enc');
-- last4 is kept in clear so the status needs no decryption. Rotation rewrites
-- api_key_enc in place by id (see SECRET_COLUMNS in packages/kit).
create table ai.provider_keys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  provider text not null check (provider in ('openai')),
  api_key_enc text not null check (api_key_enc like 'v1:%'),
  last4 text not null check (char_length(last4) <= 4),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, provider)
);

-- One assistant configuration per user; absent until the first save (GET answers the defaults).
-- The checks repeat the API's limits so no other writer can store what the API refuses.
create table ai.assistant_configs (
  user_id uuid primary key,
  name text not null,
  goal text not null,
  tone text not null,
  system_prompt text not null,
  variables text[] not null,
  custom_vars text[] not null,
  internal_sources text[] not null
    check (internal_sources <@ array['contacts', 'emails', 'whatsapp', 'calendar']),
  allow_web boolean not null,
  model text not null check (model in ('gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini')),
  temperature numeric(2, 1) not null check (temperature between 0 and 1),
  max_tokens integer not null check (max_tokens between 100 and 4000),
  updated_at timestamptz not null default now()
);

-- Events of this schema (ai.run.completed, …), relayed after commit like every service's.
select platform.create_outbox('ai');

-- Down Migration
drop schema ai cascade;
