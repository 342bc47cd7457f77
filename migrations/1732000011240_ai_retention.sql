-- Up Migration
-- This service's copy of the owner's retention for its AI runs, kept from auth's
-- `account.retention.changed` events (packages/kit/src/retention): the daily job reads it here, never in
-- auth's schema. changed_at orders the settings: an older event delivered late changes nothing.
create table ai.retention (
  user_id uuid primary key,
  days integer check (days between 1 and 3650),
  changed_at timestamptz not null
);

-- Down Migration
drop table ai.retention;
