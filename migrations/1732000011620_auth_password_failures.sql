-- Up Migration
-- Wrong passwords, wherever a password is checked (the login, a password change, an account deletion), one
-- row per key (the account's address, the client's address) kept for the window it counts in. Here and not
-- in a replica's memory, so the limit holds at N replicas. A row is written before the check and removed
-- when the password was right, so checks in flight count too.
create table auth.password_failures (
  id bigint generated always as identity primary key,
  key text not null,
  failed_at timestamptz not null default now()
);
create index password_failures_key_at on auth.password_failures (key, failed_at);
create index password_failures_at on auth.password_failures (failed_at);

-- Down Migration
drop table auth.password_failures;
