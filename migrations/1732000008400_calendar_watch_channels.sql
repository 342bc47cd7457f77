-- Up Migration
-- Google push channels (events.watch): one per mirrored calendar while PUBLIC_URL is https. Google posts
-- to /api/google/notifications with the channel id and the token set when the channel was opened; only the
-- token's hash is kept. Rows go with the calendar (disconnect, or a calendar removed in Google).
create table calendar.watch_channels (
  id text primary key,
  user_id uuid not null,
  calendar_id text not null,
  resource_id text not null,
  token_hash text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  unique (user_id, calendar_id),
  foreign key (user_id, calendar_id) references calendar.calendars (user_id, id) on delete cascade
);
create index watch_channels_expiry_idx on calendar.watch_channels (expires_at);

-- Down Migration
drop table calendar.watch_channels;
