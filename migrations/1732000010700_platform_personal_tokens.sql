-- Up Migration
-- Personal access tokens: written by auth, read by the gateway (a platform table, like user_sessions) to
-- exchange a token for a short-lived session token. Only the SHA-256 of the token is kept (a token is 32
-- random bytes: a fast hash cannot be reversed by guessing) and its first characters to recognise it.
-- Revoking deletes the row: the next request with the token finds nothing, whichever gateway it reaches.
create table platform.personal_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  name text not null,
  scopes text[] not null,
  token_hash text not null unique,
  prefix text not null,
  expires_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz not null default now()
);

create index personal_tokens_user on platform.personal_tokens (user_id, created_at desc);

-- Down Migration
drop table platform.personal_tokens;
