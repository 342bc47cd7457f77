-- Up Migration
-- A user's CalDAV account (iCloud, Fastmail, Nextcloud, any RFC 4791 server). The server URL is the one the
-- user typed; discovery's results (principal, calendar home) are kept so requests skip it. The app password
-- is stored only sealed (AES-256-GCM envelope, AAD = user id + table + column; see SECRET_COLUMNS in
-- packages/kit); rotate-keys rewrites it in place by id.
create table calendar.caldav_accounts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique,
  server_url text not null,
  username text not null,
  password_enc text not null check (password_enc like 'v1:%'),
  root_url text not null,
  principal_url text not null,
  home_url text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The account's calendars (the collection URL is the id). ctag and sync_token are the server's markers of
-- the last sync: equal ctag, nothing changed; sync_token, the sync-collection report's starting point.
create table calendar.caldav_calendars (
  user_id uuid not null references calendar.caldav_accounts (user_id) on delete cascade,
  id text not null,
  name text not null,
  color text,
  position integer not null default 0,
  supports_sync boolean not null default false,
  ctag text,
  sync_token text,
  synced_at timestamptz,
  primary key (user_id, id)
);

-- The calendar objects as the server holds them (raw iCalendar, its etag for If-Match). Series are expanded
-- when read, within the range asked; starts_at/ends_at bound the object's events (ends_at null: no end) so a
-- range reads only the objects that can touch it.
create table calendar.caldav_objects (
  user_id uuid not null,
  calendar_id text not null,
  href text not null,
  uid text not null,
  etag text,
  ics text not null,
  starts_at timestamptz not null,
  ends_at timestamptz,
  primary key (user_id, calendar_id, href),
  foreign key (user_id, calendar_id) references calendar.caldav_calendars (user_id, id) on delete cascade
);
create index caldav_objects_uid_idx on calendar.caldav_objects (user_id, calendar_id, uid);
create index caldav_objects_range_idx on calendar.caldav_objects (user_id, calendar_id, starts_at);

-- Down Migration
drop table calendar.caldav_objects;
drop table calendar.caldav_calendars;
drop table calendar.caldav_accounts;
