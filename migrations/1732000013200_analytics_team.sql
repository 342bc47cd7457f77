-- Up Migration
-- The team inbox's figures per member (GET /analytics/team), kept from the inbox's conversation.* events alone:
-- analytics never reads the inbox's schema. `user_id` is the workspace, as in every other table here; the members
-- who acted are named in their own columns.

-- Who acted, as the envelope says (the member who answered, resolved or assigned). The team's figures are derived
-- from a conversation's recorded events, by the consumer and by a rebuild alike, so the history keeps it. Events
-- recorded before this column existed have none: their answers count for the workspace, for no member.
alter table analytics.events add column actor_id uuid;

-- A conversation's events in order: each batch that brings one of them derives that conversation again from all.
create index analytics_events_conversation on analytics.events (user_id, (data->>'conversationId'), occurred_at, id)
  where type like 'conversation.%';

-- Each time a conversation opened (its customer's first message, or the message that reopened it) until it was
-- resolved: when, its first answer after that (whoever gave it), who was assigned, when and by whom it was resolved.
create table analytics.conversation_openings (
  user_id uuid not null,
  conversation_id uuid not null,
  -- The event that opened it: two openings never share one, even at the same instant.
  opened_by uuid not null,
  opened_at timestamptz not null,
  first_answer_at timestamptz,
  first_answer_author text check (first_answer_author in ('member', 'assistant', 'keyword', 'phone')),
  first_answer_member uuid,
  -- Assigned when it was resolved (while open: now).
  assignee_id uuid,
  resolved_at timestamptz,
  resolved_by uuid,
  primary key (user_id, conversation_id, opened_by)
);
create index analytics_openings_answered on analytics.conversation_openings (user_id, first_answer_at);
create index analytics_openings_resolved on analytics.conversation_openings (user_id, resolved_at);

-- The last time each member (their id) or the assistant ('assistant': the assistant and the keyword rules)
-- answered each conversation: "conversations handled" in a period ending now is a count of rows seen since its start.
create table analytics.conversation_answerers (
  user_id uuid not null,
  conversation_id uuid not null,
  answerer text not null,
  last_answered_at timestamptz not null,
  primary key (user_id, conversation_id, answerer)
);
create index analytics_answerers_recent on analytics.conversation_answerers (user_id, last_answered_at);

-- Down Migration
drop table analytics.conversation_answerers;
drop table analytics.conversation_openings;
drop index analytics.analytics_events_conversation;
alter table analytics.events drop column actor_id;
