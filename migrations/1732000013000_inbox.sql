-- Up Migration
-- The team's inbox (services/inbox): conversations whatever channel brought them, their entries (messages
-- and members' notes), how they are assigned. `user_id` is the workspace, as in every other schema; the
-- people who act are named in their own columns (assignee_id, author_id, member_id).
create schema if not exists inbox;
select platform.create_outbox('inbox');

-- One per customer and channel in a workspace: the unique key makes the first message of a customer, seen by
-- two replicas at once, create one conversation (and so one assignment).
create table inbox.conversations (
  id uuid primary key,
  user_id uuid not null,
  channel text not null,
  -- How the channel reaches the customer (`+34600111222`); only the channel's service knows more.
  handle text not null,
  name text,
  contact_id uuid,
  status text not null default 'open' check (status in ('open', 'pending', 'resolved')),
  assignee_id uuid,
  assistant_active boolean not null default true,
  last_message_at timestamptz,
  last_message_preview text,
  -- The last customer message, and when a member, the assistant or a rule last answered: the stale-send check
  -- and the figures read them.
  last_incoming_at timestamptz,
  unread integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, channel, handle)
);
create index inbox_conversations_recent on inbox.conversations (user_id, last_message_at desc nulls last, id);
create index inbox_conversations_assignee on inbox.conversations (user_id, assignee_id, status);

-- A thread's lines. A message carries the channel's own id (unique per conversation), so the channel's event
-- and the inbox's own send of the same message meet in one row; a note has none and never leaves the inbox.
create table inbox.entries (
  id uuid primary key,
  user_id uuid not null,
  conversation_id uuid not null references inbox.conversations (id) on delete cascade,
  kind text not null check (kind in ('message', 'note')),
  direction text check (direction in ('incoming', 'outgoing')),
  author text not null check (author in ('customer', 'member', 'assistant', 'keyword', 'phone')),
  -- The member who wrote it, and their name as it was then (kept after they leave).
  author_id uuid,
  author_name text,
  body text not null,
  channel_message_id text,
  at timestamptz not null,
  seq bigint generated always as identity,
  unique (conversation_id, channel_message_id)
);
create index inbox_entries_thread on inbox.entries (conversation_id, at desc, seq desc);
create index inbox_entries_age on inbox.entries (user_id, at);

-- The workspace's inbox rules; `last_assigned_id` is the round-robin's turn, read and moved under this row's
-- lock, so two replicas assigning at once take turns.
create table inbox.settings (
  user_id uuid primary key,
  assignment text not null default 'none' check (assignment in ('none', 'round_robin', 'fewest_open')),
  only_assignee_sends boolean not null default false,
  last_assigned_id uuid
);

-- "Disponible / Ausente": a member without a row is available.
create table inbox.availability (
  user_id uuid not null,
  member_id uuid not null,
  available boolean not null,
  primary key (user_id, member_id)
);

-- Who assigned whom and when: a member, or the workspace's rule (assigned_by null).
create table inbox.assignments (
  id uuid primary key,
  user_id uuid not null,
  conversation_id uuid not null references inbox.conversations (id) on delete cascade,
  assignee_id uuid,
  assigned_by uuid,
  at timestamptz not null default now()
);
create index inbox_assignments_conversation on inbox.assignments (conversation_id, at);

-- What each member has seen of a conversation: the newest entry its reads returned. A send answering a
-- customer message that someone else answered after that is stale.
create table inbox.reads (
  user_id uuid not null,
  conversation_id uuid not null references inbox.conversations (id) on delete cascade,
  member_id uuid not null,
  seen_seq bigint not null,
  primary key (conversation_id, member_id)
);

-- A note that named a member (`@Nombre`).
create table inbox.mentions (
  id uuid primary key,
  user_id uuid not null,
  entry_id uuid not null references inbox.entries (id) on delete cascade,
  member_id uuid not null,
  seen_at timestamptz
);
create index inbox_mentions_member on inbox.mentions (user_id, member_id, seen_at);

-- Who is looking at a conversation and who is typing in it, each until a moment its client renews (a closed tab
-- simply stops renewing). Every replica's live streams hear of a change through the bus, not from here.
create table inbox.presence (
  user_id uuid not null,
  conversation_id uuid not null references inbox.conversations (id) on delete cascade,
  member_id uuid not null,
  member_name text not null,
  viewing_until timestamptz not null,
  typing_until timestamptz,
  primary key (conversation_id, member_id)
);

-- This service's copy of the owner's WhatsApp retention (packages/kit/src/retention).
create table inbox.retention (
  user_id uuid primary key,
  days integer check (days between 1 and 3650),
  changed_at timestamptz not null
);

-- Down Migration
drop schema inbox cascade;
