-- Up Migration
-- Saved views of the contacts list (a named search + tag filter + sort), per
-- user; a name is unique per user, compared without case.
create table contacts.saved_views (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  name text not null,
  search text not null default '',
  tag text not null default '',
  sort text not null default 'createdAt',
  direction text not null default 'desc',
  created_at timestamptz not null default now()
);
create unique index contacts_saved_views_user_name on contacts.saved_views (user_id, lower(name));

-- Down Migration
drop table contacts.saved_views;
