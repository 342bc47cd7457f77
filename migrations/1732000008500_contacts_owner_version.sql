-- Up Migration
-- A version per owner, bumped by every statement that writes the owner's contacts (the same statement
-- triggers that keep the counts). A search's total, which for a term matching most rows means reading a
-- thousand of them, is remembered with the version it was counted at and reused while the version holds.
alter table contacts.owner_counts add column version bigint not null default 0;

create or replace function contacts.count_delta() returns trigger
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
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email, version = oc.version + 1;
  return null;
end
$$;

create or replace function contacts.count_inserted() returns trigger language plpgsql as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, count(*), count(email) from new_rows group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email, version = oc.version + 1;
  return null;
end
$$;

create or replace function contacts.count_deleted() returns trigger language plpgsql as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, -count(*), -count(email) from old_rows group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email, version = oc.version + 1;
  return null;
end
$$;

-- Down Migration
create or replace function contacts.count_delta() returns trigger
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

create or replace function contacts.count_inserted() returns trigger language plpgsql as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, count(*), count(email) from new_rows group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email;
  return null;
end
$$;

create or replace function contacts.count_deleted() returns trigger language plpgsql as $$
begin
  insert into contacts.owner_counts as oc (user_id, total, with_email)
  select user_id, -count(*), -count(email) from old_rows group by user_id
  on conflict (user_id) do update
    set total = oc.total + excluded.total, with_email = oc.with_email + excluded.with_email;
  return null;
end
$$;

alter table contacts.owner_counts drop column version;
