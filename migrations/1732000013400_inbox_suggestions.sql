-- Up Migration
-- The assistant's suggested answers in a thread (`kind = 'suggestion'`, author 'assistant'): like a note, shown to
-- members only and never sent (no channel message id); a member edits one and sends it as their own answer.
alter table inbox.entries drop constraint entries_kind_check;
alter table inbox.entries add constraint entries_kind_check check (kind in ('message', 'note', 'suggestion'));

-- Down Migration
delete from inbox.entries where kind = 'suggestion';
alter table inbox.entries drop constraint entries_kind_check;
alter table inbox.entries add constraint entries_kind_check check (kind in ('message', 'note'));
