-- Up Migration
-- The inbox reads only whatsapp.chats: the summary columns (last_at, last_text, last_direction, unread) are
-- kept by the inbound/outbound writes in the same transaction as the messages. This adds what the search
-- needs to use an index: a folded search column (name, phone, the JID's user part and the phone's digits
-- alone, so '600 000 017' finds '+34600000017') under a trigram index, and a partial index that serves the
-- newest-first page and its count without visiting chats that have no message yet.
create function whatsapp.fold(value text) returns text
language sql immutable parallel safe
as $$
  select lower(public.unaccent('public.unaccent'::regdictionary, value))
$$;

alter table whatsapp.chats add column search text generated always as (
  whatsapp.fold(coalesce(name, '') || ' ' || coalesce(phone, '') || ' ' || split_part(jid, '@', 1) || ' ' ||
    regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))
) stored;
create index chats_search_trgm on whatsapp.chats using gin (search gin_trgm_ops);

drop index whatsapp.chats_user_recent;
create index chats_user_recent on whatsapp.chats (user_id, last_at desc, id) where last_at is not null;

-- Backfill: every chat's summary from its newest stored message (merges before this migration could leave a
-- chat's preview behind its messages).
update whatsapp.chats c set
  last_at = m.sent_at,
  last_text = coalesce(nullif(m.body, ''), m.media->>'kind', ''),
  last_direction = m.direction
from (
  select distinct on (chat_id) chat_id, sent_at, body, media, direction
  from whatsapp.messages order by chat_id, sent_at desc, seq desc
) m
where m.chat_id = c.id
  and (c.last_at is distinct from m.sent_at or c.last_direction is distinct from m.direction
       or c.last_text is distinct from coalesce(nullif(m.body, ''), m.media->>'kind', ''));

-- Down Migration
drop index whatsapp.chats_user_recent;
create index chats_user_recent on whatsapp.chats (user_id, last_at desc nulls last, id);
drop index whatsapp.chats_search_trgm;
alter table whatsapp.chats drop column search;
drop function whatsapp.fold(text);
