-- Up Migration
-- Per-user, per-folder totals and unread counts kept by statement-level triggers, so the mail list's
-- total and the inbox's unread badge do not count 100k rows on every request (as contacts.owner_counts).
create table email.folder_counts (
  user_id uuid not null,
  folder text not null,
  total bigint not null default 0,
  unread bigint not null default 0,
  primary key (user_id, folder)
);

insert into email.folder_counts (user_id, folder, total, unread)
select user_id, folder, count(*), count(*) filter (where not is_read) from email.messages group by user_id, folder;

create function email.count_inserted() returns trigger language plpgsql as $$
begin
  insert into email.folder_counts as fc (user_id, folder, total, unread)
  select user_id, folder, count(*), count(*) filter (where not is_read) from new_rows group by user_id, folder
  on conflict (user_id, folder) do update set total = fc.total + excluded.total, unread = fc.unread + excluded.unread;
  return null;
end
$$;

create function email.count_deleted() returns trigger language plpgsql as $$
begin
  insert into email.folder_counts as fc (user_id, folder, total, unread)
  select user_id, folder, -count(*), -count(*) filter (where not is_read) from old_rows group by user_id, folder
  on conflict (user_id, folder) do update set total = fc.total + excluded.total, unread = fc.unread + excluded.unread;
  return null;
end
$$;

-- A move (folder change) or a read flag: the old side leaves its folder's counts, the new side joins its own.
create function email.count_updated() returns trigger language plpgsql as $$
begin
  insert into email.folder_counts as fc (user_id, folder, total, unread)
  select user_id, folder, sum(d_total), sum(d_unread)
  from (
    select user_id, folder, 1 as d_total, (not is_read)::int as d_unread from new_rows
    union all
    select user_id, folder, -1, -((not is_read)::int) from old_rows
  ) delta
  group by user_id, folder
  on conflict (user_id, folder) do update set total = fc.total + excluded.total, unread = fc.unread + excluded.unread;
  return null;
end
$$;

create trigger messages_count_insert after insert on email.messages
  referencing new table as new_rows for each statement execute function email.count_inserted();
create trigger messages_count_update after update on email.messages
  referencing old table as old_rows new table as new_rows for each statement execute function email.count_updated();
create trigger messages_count_delete after delete on email.messages
  referencing old table as old_rows for each statement execute function email.count_deleted();

-- Down Migration
drop trigger messages_count_delete on email.messages;
drop trigger messages_count_update on email.messages;
drop trigger messages_count_insert on email.messages;
drop function email.count_updated();
drop function email.count_deleted();
drop function email.count_inserted();
drop table email.folder_counts;
