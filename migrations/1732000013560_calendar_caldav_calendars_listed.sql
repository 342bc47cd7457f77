-- Up Migration
-- When the server's calendar list was last read for the account. Each sync pass asks again once it is older
-- than a minute, so a calendar made or removed on the server (or in another app) comes and goes without
-- reconnecting; kept here, not in memory, so every replica knows when any of them asked last.
alter table calendar.caldav_accounts add column calendars_listed_at timestamptz;

-- Down Migration
alter table calendar.caldav_accounts drop column calendars_listed_at;
