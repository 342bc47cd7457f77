-- Up Migration
-- The customer lines waiting for one automatic answer, per chat. They live here, not in a process, because
-- every ai replica takes events from the same durable consumer: the lines of one burst may reach different
-- replicas, and the one that answers may die. A burst is open (claimed_by null: new lines join it and push
-- due_at back) until a replica claims it once due; a claim is a lease that replica renews while it answers,
-- so another takes the burst over when the lease runs out. Answered, the row is deleted.
create table ai.chat_bursts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  chat_id text not null,
  -- The WhatsApp message ids of the burst, as their events arrived.
  message_ids uuid[] not null,
  due_at timestamptz not null,
  claimed_by text,
  claimed_until timestamptz,
  -- Claims so far: a burst whose answer keeps failing (or killing its replica) is given up after a few.
  attempts integer not null default 0,
  created_at timestamptz not null default now()
);
create unique index chat_bursts_open on ai.chat_bursts (user_id, chat_id) where claimed_by is null;
create index chat_bursts_due on ai.chat_bursts (due_at);

-- Customer messages already taken into a burst: a redelivered event (a lost ack, another replica) finds its
-- message here and is not answered twice. Written in the transaction that adds the message to its burst;
-- rows older than any event still answered (MAX_EVENT_AGE_MS) are deleted.
create table ai.auto_reply_seen (
  user_id uuid not null,
  message_id uuid not null,
  seen_at timestamptz not null default now(),
  primary key (user_id, message_id)
);
create index auto_reply_seen_at on ai.auto_reply_seen (seen_at);

-- Down Migration
drop table ai.auto_reply_seen;
drop table ai.chat_bursts;
