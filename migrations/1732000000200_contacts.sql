-- Up Migration
create schema if not exists contacts;

-- Case- and accent-insensitive folding for search. Accents go first, so
-- lower() only meets ASCII (under the C locale it leaves 'Ñ' alone). unaccent
-- is only stable because its dictionary could change; naming the dictionary
-- makes this wrapper safe to declare immutable, as a stored column and its
-- index need. It costs about a third of a translate() over an accent map.
create function contacts.fold(value text) returns text
language sql immutable parallel safe
as $$
  select lower(public.unaccent('public.unaccent'::regdictionary, value))
$$;

create table contacts.contacts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  first_name text not null,
  last_name text not null,
  email text,
  phone text,
  company text,
  tags text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  search text generated always as (
    -- || rather than concat_ws: concat_ws is only stable, and generated columns need immutable.
    contacts.fold(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' ||
      coalesce(phone, '') || ' ' || coalesce(company, ''))
  ) stored
);
-- Import upserts by address: one contact per (user, email) whatever its case.
create unique index contacts_user_email on contacts.contacts (user_id, lower(email)) where email is not null;
create index contacts_user_recent on contacts.contacts (user_id, created_at desc, id desc);
create index contacts_search_trgm on contacts.contacts using gin (search gin_trgm_ops);
create index contacts_tags on contacts.contacts using gin (tags);

select platform.create_outbox('contacts');

-- Per-user totals kept by statement-level triggers, so the list's total and
-- the stat cards do not count 100k rows on every request. Statement-level
-- (transition tables) keeps a 1M-row import to one counter update.
create table contacts.owner_counts (
  user_id uuid primary key,
  total bigint not null default 0,
  with_email bigint not null default 0
);

create function contacts.count_delta() returns trigger
language plpgsql
as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, sum(d_total), sum(d_email)
  from (
    select user_id, 1 as d_total, (email is not null)::int as d_email from new_rows
    union all
    select user_id, -1, -((email is not null)::int) from old_rows
  ) delta
  group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email;
  return null;
end
$$;

-- A transition table exists only for its own event; these give the other side as empty.
create function contacts.count_inserted() returns trigger language plpgsql as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, count(*), count(email) from new_rows group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email;
  return null;
end
$$;

create function contacts.count_deleted() returns trigger language plpgsql as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, -count(*), -count(email) from old_rows group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email;
  return null;
end
$$;

create trigger contacts_count_insert after insert on contacts.contacts
  referencing new table as new_rows for each statement execute function contacts.count_inserted();
create trigger contacts_count_update after update on contacts.contacts
  referencing old table as old_rows new table as new_rows for each statement execute function contacts.count_delta();
create trigger contacts_count_delete after delete on contacts.contacts
  referencing old table as old_rows for each statement execute function contacts.count_deleted();

-- Down Migration
drop schema contacts cascade;
