-- Up Migration
-- Contacts deleted in bulk wait here, exactly as they were (ids included),
-- under the undo token of their deletion, so "Deshacer" puts them back
-- whatever the size of the selection. Rows older than the undo window are
-- purged by the next bulk delete.
create table contacts.trash (
  batch_id uuid not null,
  user_id uuid not null,
  deleted_at timestamptz not null default now(),
  id uuid not null,
  first_name text not null,
  last_name text not null,
  email text,
  phone text,
  company text,
  tags text[] not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  primary key (batch_id, id)
);
create index trash_deleted_at on contacts.trash (deleted_at);

-- Down Migration
drop table contacts.trash;
