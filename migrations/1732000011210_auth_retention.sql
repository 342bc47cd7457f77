-- Up Migration
-- How long the owner keeps each kind of data, in days; null keeps it forever (no row: forever too). auth
-- owns the setting and announces every change (`account.retention.changed`); whatsapp, email and ai each
-- keep a copy of the part they apply.
create table auth.retention (
  user_id uuid primary key references auth.users (id) on delete cascade,
  whatsapp_days integer check (whatsapp_days between 1 and 3650),
  email_body_days integer check (email_body_days between 1 and 3650),
  ai_run_days integer check (ai_run_days between 1 and 3650),
  updated_at timestamptz not null default now()
);

-- Down Migration
drop table auth.retention;
