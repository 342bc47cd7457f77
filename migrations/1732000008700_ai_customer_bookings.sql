-- Up Migration
-- Meetings the assistant booked for a customer's chat, counted per UTC day. The count lives here, not in a
-- process, because every ai replica answers chats: a reservation is one upsert that stops at the cap, so two
-- replicas answering the same chat at once cannot both pass it.
create table ai.customer_bookings (
  user_id uuid not null,
  chat_id text not null,
  day date not null,
  booked integer not null check (booked >= 0),
  primary key (user_id, chat_id, day)
);

-- Down Migration
drop table ai.customer_bookings;
