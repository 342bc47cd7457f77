-- Up Migration
create schema if not exists calendar;

-- A user's Google connection. Both tokens are stored only sealed (AES-256-GCM envelope, AAD = user id + table +
-- column; see SECRET_COLUMNS in packages/kit); rotation rewrites them in place by id. revoked_at is set when
-- Google refuses the refresh token: the screens then ask the user to connect again.
create table calendar.google_accounts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique,
  email text not null,
  access_token_enc text check (access_token_enc like 'v1:%'),
  refresh_token_enc text check (refresh_token_enc like 'v1:%'),
  expires_at timestamptz,
  scope text,
  revoked_at timestamptz,
  -- When the list of calendars was last read from Google (it refreshes after a minute, like the events).
  calendars_synced_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The mirror of the user's Google calendars. sync_token is Google's nextSyncToken for the incremental sync of
-- the calendar's events; synced_at says how fresh the mirrored events are (views refresh after a minute).
create table calendar.calendars (
  user_id uuid not null,
  id text not null,
  summary text not null,
  background_color text,
  is_primary boolean not null default false,
  access_role text,
  position integer not null default 0,
  sync_token text,
  synced_at timestamptz,
  primary key (user_id, id)
);

-- Mirrored events (recurring series expanded into instances by Google, singleEvents=true). Timed events carry
-- start_at/end_at; all-day events carry start_date/end_date (Google's exclusive end) and their day bounds in
-- UTC in start_at/end_at so one range query serves both.
create table calendar.events (
  user_id uuid not null,
  calendar_id text not null,
  id text not null,
  summary text,
  description text,
  location text,
  all_day boolean not null,
  start_at timestamptz not null,
  end_at timestamptz not null,
  start_date date,
  end_date date,
  attendees text[] not null default '{}',
  status text not null default 'confirmed',
  transparency text,
  recurrence text[],
  recurring_event_id text,
  hangout_link text,
  html_link text,
  created_at timestamptz,
  updated_at timestamptz,
  primary key (user_id, calendar_id, id),
  foreign key (user_id, calendar_id) references calendar.calendars (user_id, id) on delete cascade
);
create index events_range_idx on calendar.events (user_id, calendar_id, start_at);
create index events_user_range_idx on calendar.events (user_id, start_at);

-- Meetings created from the product (Google Meet): the calendar event that holds the conference and its URL.
create table calendar.meetings (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  calendar_id text not null,
  event_id text not null,
  title text not null,
  description text,
  start_time timestamptz not null,
  end_time timestamptz not null,
  attendees text[] not null default '{}',
  meeting_url text,
  status text not null default 'scheduled' check (status in ('scheduled', 'ended')),
  created_at timestamptz not null default now()
);
create index meetings_user_idx on calendar.meetings (user_id, start_time desc);

-- calendar.event.created/updated/deleted and meet.meeting.created, relayed after commit.
select platform.create_outbox('calendar');

-- Down Migration
drop schema calendar cascade;
