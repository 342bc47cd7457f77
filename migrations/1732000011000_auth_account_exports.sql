-- Up Migration
-- "Descargar mis datos": one row per archive asked for, built in the background by one auth replica and
-- downloadable from any (its bytes are in account_export_chunks, not on a replica's disk). heartbeat_at moves
-- while the build runs: a row still 'running' whose heartbeat stopped belongs to a replica that died, and is
-- read as failed. Rows (and their chunks) are deleted once expires_at passes, and with their user.
create table auth.account_exports (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  status text not null check (status in ('running', 'ready', 'failed')),
  progress smallint not null default 0 check (progress between 0 and 100),
  size bigint,
  created_at timestamptz not null default now(),
  heartbeat_at timestamptz not null default now(),
  expires_at timestamptz not null
);

create index account_exports_user on auth.account_exports (user_id, created_at desc);
create index account_exports_expires on auth.account_exports (expires_at);

-- The ZIP's bytes in order, about 1 MB a row: written as the archive streams out, read back one row at a time.
create table auth.account_export_chunks (
  export_id uuid not null references auth.account_exports (id) on delete cascade,
  seq integer not null,
  data bytea not null,
  primary key (export_id, seq)
);

-- Down Migration
drop table auth.account_export_chunks;
drop table auth.account_exports;
