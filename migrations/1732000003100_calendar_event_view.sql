-- Up Migration
-- Each mirrored event keeps its normalised form (the API's answer, computed once when the event is written),
-- so a month view is one aggregate in the database instead of hundreds of rows parsed per request.
-- Mirrors made before this column existed are dropped and fetched again in full at the next view.
delete from calendar.events;
update calendar.calendars set sync_token = null, synced_at = null;
alter table calendar.events add column normalized json not null;

-- Down Migration
alter table calendar.events drop column normalized;
