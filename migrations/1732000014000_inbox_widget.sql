-- Up Migration
-- The chat widget of the owner's website ("Chat web"): its settings, one per workspace; the visitors who wrote
-- (a visitor's conversation is inbox.conversations with channel 'web' and handle 'visitor:<id>'); and the
-- per-minute budgets that keep a page from flooding the inbox, counted here so every replica shares them.
create table inbox.widgets (
  user_id uuid primary key,
  -- Public: it sits in the owner's page. It names the widget, and grants nothing but writing as a visitor.
  public_key text not null unique,
  name text not null,
  color text not null,
  greeting text not null,
  allowed_origins text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table inbox.widget_visitors (
  id uuid primary key,
  user_id uuid not null,
  name text,
  email text,
  phone text,
  -- The contact the visitor's details linked or created: the conversation shows it.
  contact_id uuid,
  created_at timestamptz not null default now()
);
create index inbox_widget_visitors_workspace on inbox.widget_visitors (user_id);

create table inbox.widget_budgets (
  key text primary key,
  user_id uuid not null,
  window_started_at timestamptz not null,
  used integer not null
);
create index inbox_widget_budgets_workspace on inbox.widget_budgets (user_id);

-- Down Migration
drop table inbox.widget_budgets;
drop table inbox.widget_visitors;
drop table inbox.widgets;
delete from inbox.conversations where channel = 'web';
