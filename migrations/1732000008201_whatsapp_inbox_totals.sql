-- Up Migration
-- The inbox's total without a search: one row per account instead of counting its chats on every page.
-- A chat counts from its first message (last_at set). Kept by triggers so every write path (inbound,
-- sends, merges of a person's @lid and phone chats) counts alike; deferred to the commit, so the totals
-- row is locked last and never while a transaction still waits for a chat row (no lock cycle).
create table whatsapp.inbox_totals (
  user_id uuid primary key,
  chats integer not null default 0 check (chats >= 0)
);

create function whatsapp.count_inbox() returns trigger
language plpgsql
as $$
declare
  delta integer := case
    when tg_op = 'INSERT' then 1
    when tg_op = 'DELETE' then -1
    when new.last_at is null then -1
    else 1 end;
  account uuid := case when tg_op = 'DELETE' then old.user_id else new.user_id end;
begin
  insert into whatsapp.inbox_totals as t (user_id, chats) values (account, greatest(delta, 0))
  on conflict (user_id) do update set chats = t.chats + delta;
  return null;
end
$$;

create constraint trigger chats_count_insert after insert on whatsapp.chats
  deferrable initially deferred for each row when (new.last_at is not null) execute function whatsapp.count_inbox();
create constraint trigger chats_count_update after update of last_at on whatsapp.chats
  deferrable initially deferred for each row when ((old.last_at is null) <> (new.last_at is null))
  execute function whatsapp.count_inbox();
create constraint trigger chats_count_delete after delete on whatsapp.chats
  deferrable initially deferred for each row when (old.last_at is not null) execute function whatsapp.count_inbox();

insert into whatsapp.inbox_totals (user_id, chats)
select user_id, count(*) from whatsapp.chats where last_at is not null group by user_id;

-- Down Migration
drop trigger chats_count_delete on whatsapp.chats;
drop trigger chats_count_update on whatsapp.chats;
drop trigger chats_count_insert on whatsapp.chats;
drop function whatsapp.count_inbox();
drop table whatsapp.inbox_totals;
