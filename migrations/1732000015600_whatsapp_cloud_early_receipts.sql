-- Up Migration
-- Meta's statuses that arrive before the send's answer gave the message its Meta id (the status webhook can
-- race the POST /messages answer, on another replica): kept here and applied when the id is stored. Bounded per
-- workspace and read only while young (the service's constants), pruned by the Cloud API's catch-up pass: a
-- status for an id that never gets stored (a send retried after a lost answer, a message sent by another tool
-- on the same number) is forgotten.
create table whatsapp.cloud_early_receipts (
  user_id uuid not null,
  wamid text not null,
  status text not null check (status in ('sent', 'delivered', 'read', 'failed')),
  received_at timestamptz not null default now(),
  primary key (user_id, wamid, status)
);
create index cloud_early_receipts_wamid on whatsapp.cloud_early_receipts (wamid);
create index cloud_early_receipts_age on whatsapp.cloud_early_receipts (received_at);

-- Down Migration
drop table whatsapp.cloud_early_receipts;
