-- Up Migration
-- The member who sent a message from the app. A send is only queued in their request; its whatsapp.message.sent
-- event is written later by the socket's owner (maybe another replica), outside any request, so the member
-- is kept with the message for that event to name (actorId) and the inbox to attribute. Null for what no
-- member sent: the customer, the phone, a keyword rule, the assistant, and messages stored before.
alter table whatsapp.messages add column sent_by uuid;

-- Down Migration
alter table whatsapp.messages drop column sent_by;
