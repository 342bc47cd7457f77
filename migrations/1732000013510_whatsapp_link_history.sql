-- Up Migration
-- What the connection screen needs to tell apart, kept in the row every replica answers from:
-- ever_linked: a phone was linked at least once (until then, activity and outage figures describe no link);
-- qr_shown: the attempt the owner last asked for showed a QR (without one, the phone was never involved and
-- the trouble is between the server and WhatsApp). Accounts linked today were linked at least once.
alter table whatsapp.accounts
  add column ever_linked boolean not null default false,
  add column qr_shown boolean not null default false;
update whatsapp.accounts set ever_linked = true where linked;

-- Down Migration
alter table whatsapp.accounts drop column ever_linked, drop column qr_shown;
