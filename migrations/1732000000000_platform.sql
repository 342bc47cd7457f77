-- Up Migration
-- Shared infrastructure owned by packages/kit rather than by one service.
create extension if not exists pg_trgm;
create extension if not exists unaccent;

create schema if not exists platform;

-- Logged-out token ids; every service refuses them until they expire.
create table platform.revoked_tokens (
  jti text primary key,
  user_id uuid not null,
  expires_at timestamptz not null
);
create index revoked_tokens_expires on platform.revoked_tokens (expires_at);

-- Every service's outbox has this one shape (packages/kit/src/events/outbox.ts
-- writes it, relay.ts drains it): each migration calls this for its schema.
create function platform.create_outbox(target_schema text) returns void
language plpgsql
as $$
begin
  execute format($ddl$
    create table %1$I.outbox (
      seq bigserial primary key,
      id uuid not null unique,
      type text not null,
      user_id uuid not null,
      occurred_at timestamptz not null,
      data jsonb not null,
      published_at timestamptz,
      claimed_until timestamptz
    );
    create index %2$I on %1$I.outbox (seq) where published_at is null;
  $ddl$, target_schema, target_schema || '_outbox_pending');
end
$$;

-- Demo and tooling events that belong to no service's schema.
select platform.create_outbox('platform');

-- Down Migration
drop schema platform cascade;
