-- Up Migration
-- Set from one sequence whenever a calendar's mirrored events change (sync, write, delete), in the same
-- transaction, and on every new calendar row: a process may keep a view of the calendar in memory for as long
-- as the version it read is still the current one (a sequence, so a calendar removed and mirrored again never
-- repeats a version).
create sequence calendar.mirror_versions;
alter table calendar.calendars add column version bigint not null default nextval('calendar.mirror_versions');

-- Down Migration
alter table calendar.calendars drop column version;
drop sequence calendar.mirror_versions;
