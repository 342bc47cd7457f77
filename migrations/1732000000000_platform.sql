-- Up Migration
-- Shared infrastructure owned by packages/kit rather than by one service.
create extension if not exists pg_trgm;

create schema if not exists platform;

-- Logged-out token ids; every service refuses them until they expire.
create table platform.revoked_tokens (
  jti text primary key,
  user_id uuid not null,
  expires_at timestamptz not null
);
create index revoked_tokens_expires on platform.revoked_tokens (expires_at);

-- Down Migration
drop schema platform cascade;
