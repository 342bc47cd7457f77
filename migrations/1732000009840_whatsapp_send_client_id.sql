-- Up Migration
-- The id a caller gave a send (POST /whatsapp/messages, clientMessageId). Sending again with the same id finds
-- the message already queued instead of queuing a second one: the assistant answering a burst again after
-- the replica that was answering it died must not write to the customer twice.
alter table whatsapp.messages add column client_id uuid;
create unique index messages_user_client on whatsapp.messages (user_id, client_id) where client_id is not null;

-- Down Migration
drop index whatsapp.messages_user_client;
alter table whatsapp.messages drop column client_id;
