-- Up Migration
-- A business is a workspace (whose data it is); its people are members (who acts, with a role). Every
-- account becomes the owner of a workspace of its own whose id is the account's: the rows the services keep
-- under that id and the secrets sealed for it belong to the workspace as they are, so the upgrade re-keys and
-- re-seals nothing, and sessions and personal tokens issued before it keep working. A workspace made at
-- registration takes its founder's id the same way; one a member joins by invitation is someone else's.
create table auth.workspaces (
  id uuid primary key,
  name text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table auth.members (
  workspace_id uuid not null references auth.workspaces (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'agent')),
  joined_at timestamptz not null default now(),
  last_active_at timestamptz,
  primary key (workspace_id, user_id)
);

create unique index members_one_owner on auth.members (workspace_id) where role = 'owner';
create index members_user on auth.members (user_id);

-- Where a login opens: the workspace the person used last.
alter table auth.users add column last_workspace_id uuid references auth.workspaces (id) on delete set null;

insert into auth.workspaces (id, name, created_at)
  select id, coalesce(nullif(btrim(company), ''), 'Mi empresa'), created_at from auth.users;
insert into auth.members (workspace_id, user_id, role, joined_at)
  select id, id, 'owner', created_at from auth.users;
update auth.users set last_workspace_id = id;

-- Who belongs where, for every service's token check (a platform table, like user_sessions): a session
-- token names its workspace, and one whose person left it stops working on the next request, at every replica.
-- valid_after ends a member's sessions in one workspace (their role changed: the new one needs a new token).
create table platform.memberships (
  workspace_id uuid not null,
  user_id uuid not null,
  valid_after timestamptz not null default 'epoch',
  primary key (workspace_id, user_id)
);

insert into platform.memberships (workspace_id, user_id) select workspace_id, user_id from auth.members;

create function platform.track_membership() returns trigger
language plpgsql
as $$
begin
  if tg_op = 'INSERT' then
    insert into platform.memberships (workspace_id, user_id) values (new.workspace_id, new.user_id) on conflict do nothing;
    return new;
  end if;
  delete from platform.memberships where workspace_id = old.workspace_id and user_id = old.user_id;
  return old;
end
$$;

create trigger members_track_memberships after insert or delete on auth.members
  for each row execute function platform.track_membership();

-- A personal token is a member's: it acts in one workspace, never above the member's role.
alter table platform.personal_tokens
  add column workspace_id uuid,
  add column role text check (role in ('owner', 'admin', 'agent'));
update platform.personal_tokens set workspace_id = user_id, role = 'owner';
alter table platform.personal_tokens alter column workspace_id set not null, alter column role set not null;

-- Down Migration
alter table platform.personal_tokens drop column role, drop column workspace_id;
drop trigger members_track_memberships on auth.members;
drop function platform.track_membership();
drop table platform.memberships;
alter table auth.users drop column last_workspace_id;
drop table auth.members;
drop table auth.workspaces;
