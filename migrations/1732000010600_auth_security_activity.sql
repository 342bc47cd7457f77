-- Up Migration
-- The owner's security activity log (logins, logouts, password changes, providers, keys): written by auth's
-- consumer of `security.activity.recorded` events, one row per event id (a redelivery writes nothing), kept
-- 90 days. detail holds a provider's name or an account's address at most, never a secret.
create table auth.security_activity (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  type text not null,
  at timestamptz not null,
  ip text,
  user_agent text,
  detail jsonb not null default '{}'
);

create index security_activity_user_at on auth.security_activity (user_id, at desc);
-- The 90-day purge finds the old rows without reading the table.
create index security_activity_at on auth.security_activity (at);

-- Down Migration
drop table auth.security_activity;
