-- Up Migration
-- "Eliminar mi cuenta": the record of a deletion outlives the user it erased, so it holds no personal data and
-- no user id: the deletion's id (the key its progress is read with), when it was asked and finished, and each
-- service's state. The user row and everything that names it are gone as soon as the services report done.
create table auth.account_deletions (
  id uuid primary key,
  requested_at timestamptz not null default now(),
  finished_at timestamptz
);

-- One row per service: pending until its erasure starts, running, then done (never back: a redelivered
-- erasure reports running again after done). problems are Spanish lines about providers that failed.
create table auth.account_erasure_progress (
  deletion_id uuid not null references auth.account_deletions (id) on delete cascade,
  service text not null,
  status text not null default 'pending' check (status in ('pending', 'running', 'done')),
  problems jsonb not null default '[]',
  updated_at timestamptz not null default now(),
  primary key (deletion_id, service)
);

-- Down Migration
drop table auth.account_erasure_progress;
drop table auth.account_deletions;
