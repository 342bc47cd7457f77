-- Up Migration
-- This service's copy of the owner's retention for its mail bodies and attachments, kept from auth's
-- `account.retention.changed` events (packages/kit/src/retention): the daily job reads it here, never in
-- auth's schema. changed_at orders the settings: an older event delivered late changes nothing.
create table email.retention (
  user_id uuid primary key,
  days integer check (days between 1 and 3650),
  changed_at timestamptz not null
);

-- The job finds the mails whose body is still held (stored, or a preview) without reading the rest: a mail
-- it emptied leaves this index.
create index messages_user_body_held on email.messages (user_id, sent_at) where folder <> 'drafts' and (body_fetched or preview <> '');

-- Down Migration
drop index email.messages_user_body_held;
drop table email.retention;
