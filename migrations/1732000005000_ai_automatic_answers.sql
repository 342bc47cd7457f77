-- Up Migration

-- Set when OpenAI answered 401 to a run with this key; cleared by a successful run or a new key.
alter table ai.provider_keys add column invalid_at timestamptz;

-- The automatic WhatsApp answers and their rails (defaults: off, nobody is charged by surprise).
alter table ai.assistant_configs
  -- [[variable, value], …]: pairs, not an object, because the driver's camelCase transform rewrites JSON keys.
  add column variable_values jsonb not null default '[]'::jsonb check (jsonb_typeof(variable_values) = 'array'),
  add column auto_reply boolean not null default false,
  add column max_replies_per_chat_per_day integer not null default 20 check (max_replies_per_chat_per_day between 1 and 200),
  add column daily_budget_usd numeric(8, 2) not null default 1 check (daily_budget_usd between 0 and 1000),
  add column can_book_meetings boolean not null default false,
  add column handoff_phrase text not null default 'Te paso con una persona del equipo. Te responderá en cuanto pueda. 🙌'
    check (char_length(handoff_phrase) between 1 and 500);

-- Every completed run with its cost: the daily budget sums a user's day, the per-chat cap counts a chat's
-- automatic answers of the day.
create table ai.runs (
  id uuid primary key,
  user_id uuid not null,
  trigger text not null check (trigger in ('manual', 'whatsapp')),
  chat_id text,
  model text not null,
  prompt_tokens integer not null check (prompt_tokens >= 0),
  completion_tokens integer not null check (completion_tokens >= 0),
  cost_usd numeric(12, 6) not null check (cost_usd >= 0),
  -- An automatic answer that was sent to the chat (what the per-chat cap counts).
  replied boolean not null default false,
  created_at timestamptz not null default now()
);
create index ai_runs_user_day on ai.runs (user_id, created_at);
create index ai_runs_chat_day on ai.runs (user_id, chat_id, created_at) where replied;

-- Why the assistant is silent in a chat. paused: until the owner resumes it (manual pause or a hand-off to a
-- person); paused_until: a pause that ends by itself (the owner wrote from the phone).
create table ai.chat_states (
  user_id uuid not null,
  chat_id text not null,
  paused boolean not null default false,
  paused_until timestamptz,
  reason text check (reason in ('manual', 'owner_takeover', 'handoff')),
  updated_at timestamptz not null default now(),
  primary key (user_id, chat_id)
);

-- Down Migration
drop table ai.chat_states;
drop table ai.runs;
alter table ai.assistant_configs
  drop column variable_values,
  drop column auto_reply,
  drop column max_replies_per_chat_per_day,
  drop column daily_budget_usd,
  drop column can_book_meetings,
  drop column handoff_phrase;
alter table ai.provider_keys drop column invalid_at;
