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

select platform.create_outbox('auth');

-- Down Migration
drop schema auth cascade;
