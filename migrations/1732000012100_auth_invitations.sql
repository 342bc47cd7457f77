-- Up Migration
-- Invitations to a workspace: a single-use link that works for 7 days. The token is found by its SHA-256;
-- it is also kept sealed with the key ring (bound to the workspace), so the pending list can copy the link
-- again. A cancelled or replaced invitation keeps its row: the daily limit counts every one sent.
create table auth.invitations (
  id uuid primary key,
  workspace_id uuid not null references auth.workspaces (id) on delete cascade,
  email text not null,
  role text not null check (role in ('admin', 'agent')),
  token_hash text not null unique,
  token_enc text not null,
  invited_by uuid references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  cancelled_at timestamptz
);

create index invitations_workspace on auth.invitations (workspace_id, created_at desc);
-- One open invitation per address and workspace: inviting again replaces it.
create unique index invitations_open_email on auth.invitations (workspace_id, lower(email))
  where accepted_at is null and cancelled_at is null;

-- Down Migration
drop table auth.invitations;
