-- Up Migration
-- The first sync stores what the list needs (envelope, flags, structure, a preview); the body and the
-- attachments are fetched from the server when the mail is first opened, then kept. Rows synced before
-- this change have their bodies already.
alter table email.messages add column body_fetched boolean not null default true;

-- Down Migration
alter table email.messages drop column body_fetched;
