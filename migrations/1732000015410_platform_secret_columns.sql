-- Up Migration
-- The registry of the columns that hold sealed secrets (packages/kit/src/secrets/columns.ts): each service
-- registers its own when it boots, and `asistente admin rotate-keys`, which boots none, walks what is here.
-- The columns that existed before the registry are recorded now, so a rotation run right after this upgrade,
-- before any service has booted again, still finds every one.
create table platform.secret_columns (
  table_name text not null,
  column_name text not null,
  -- The primary key (keyset pages, compare-and-set writes) and the owner's id (bound into the AAD).
  id_column text not null,
  owner_column text not null,
  primary key (table_name, column_name)
);

insert into platform.secret_columns (table_name, column_name, id_column, owner_column) values
  ('ai.provider_keys', 'api_key_enc', 'id', 'user_id'),
  ('auth.invitations', 'token_enc', 'id', 'workspace_id'),
  ('calendar.caldav_accounts', 'password_enc', 'id', 'user_id'),
  ('calendar.google_accounts', 'access_token_enc', 'id', 'user_id'),
  ('calendar.google_accounts', 'refresh_token_enc', 'id', 'user_id'),
  ('email.accounts', 'credentials_enc', 'id', 'user_id'),
  ('teams.connections', 'access_token_enc', 'id', 'user_id'),
  ('teams.connections', 'refresh_token_enc', 'id', 'user_id'),
  ('webhooks.endpoints', 'secret_enc', 'id', 'user_id'),
  ('whatsapp.accounts', 'qr_enc', 'user_id', 'user_id'),
  ('whatsapp.auth_state', 'value_enc', 'id', 'user_id'),
  ('whatsapp.cloud_accounts', 'access_token_enc', 'user_id', 'user_id');

-- Down Migration
drop table platform.secret_columns;
