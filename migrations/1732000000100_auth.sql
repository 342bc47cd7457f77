-- Up Migration
create schema if not exists auth;

create table auth.users (
  id uuid primary key default gen_random_uuid(),
  first_name text not null,
  last_name text not null,
  email text not null,
  password_hash text not null,
  company text,
  phone text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- One account per address whatever its case.
create unique index users_email_unique on auth.users (lower(email));

create table auth.outbox (
  seq bigserial primary key,
  id uuid not null unique,
  type text not null,
  user_id uuid not null,
  occurred_at timestamptz not null,
  data jsonb not null,
  published_at timestamptz,
  claimed_until timestamptz
);
create index auth_outbox_pending on auth.outbox (seq) where published_at is null;

-- Down Migration
drop schema auth cascade;
