-- Up Migration
create schema if not exists email;

-- A connected mailbox. Server settings are plain; every password or OAuth token lives only in
-- credentials_enc, a sealed AES-256-GCM envelope of a JSON object (AAD = user id + 'email.accounts' +
-- 'credentials_enc'), rewritten in place by `asistente admin rotate-keys` (SECRET_COLUMNS in packages/kit).
create table email.accounts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  provider text not null check (provider in ('gmail', 'outlook', 'imap')),
  email text not null,
  imap_host text not null,
  imap_port integer not null check (imap_port between 1 and 65535),
  imap_secure boolean not null,
  imap_user text not null,
  smtp_host text not null,
  smtp_port integer not null check (smtp_port between 1 and 65535),
  smtp_secure boolean not null,
  smtp_user text not null,
  credentials_enc text not null check (credentials_enc like 'v1:%'),
  connected boolean not null default true,
  last_sync_at timestamptz,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index accounts_user_address on email.accounts (user_id, provider, lower(email));

-- Where each role lives on the server and how far the sync has read it (UID high-water mark per UIDVALIDITY).
create table email.folders (
  account_id uuid not null references email.accounts (id) on delete cascade,
  role text not null check (role in ('inbox', 'sent', 'drafts', 'trash')),
  path text not null,
  uid_validity bigint not null,
  last_uid bigint not null default 0,
  primary key (account_id, role)
);

create table email.messages (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  account_id uuid not null references email.accounts (id) on delete cascade,
  folder text not null check (folder in ('inbox', 'sent', 'drafts', 'trash')),
  uid bigint not null,
  message_id text,
  in_reply_to text,
  refs text,
  from_addr text not null default '',
  to_addrs text not null default '',
  cc_addrs text not null default '',
  reply_to text,
  subject text not null default '',
  text_body text not null default '',
  html_body text,
  preview text not null default '',
  is_read boolean not null default false,
  has_attachments boolean not null default false,
  -- The mail could not be parsed in full: what could be read is kept.
  parse_error text,
  sent_at timestamptz not null,
  search text generated always as (lower(subject || ' ' || from_addr || ' ' || to_addrs || ' ' || preview)) stored,
  unique (account_id, folder, uid)
);
create index messages_user_folder_recent on email.messages (user_id, folder, sent_at desc, id desc);
create index messages_user_inbox_unread on email.messages (user_id) where folder = 'inbox' and not is_read;
create index messages_search_trgm on email.messages using gin (search gin_trgm_ops);

create table email.attachments (
  id uuid primary key default gen_random_uuid(),
  message_id uuid not null references email.messages (id) on delete cascade,
  position integer not null,
  name text not null,
  content_type text not null,
  size integer not null,
  content bytea not null
);
create index attachments_message on email.attachments (message_id, position);

create table email.templates (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  name text not null,
  subject text not null,
  body text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index templates_user on email.templates (user_id, created_at, id);

-- Every mail sent from the app, for open and click tracking: the signed tokens in the mail carry this id.
create table email.sent (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  account_id uuid references email.accounts (id) on delete set null,
  provider text not null,
  message_id text not null,
  opened_at timestamptz,
  clicked_at timestamptz,
  created_at timestamptz not null default now()
);

select platform.create_outbox('email');

-- Down Migration
drop schema email cascade;
