-- Up Migration
-- Password reset links (a mailed one, or one an operator printed with `asistente admin reset-password`):
-- only the SHA-256 of the token is kept, a link works once (used_at) and until expires_at (30 minutes).
create table auth.password_resets (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now()
);

create index password_resets_user on auth.password_resets (user_id);

-- Down Migration
drop table auth.password_resets;
