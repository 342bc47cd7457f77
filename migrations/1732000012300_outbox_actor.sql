-- Up Migration
-- Who caused an event: the member whose request wrote it (null for what no member asked: consumers, timers,
-- the assistant answering a customer, and rows written before). Every schema's outbox gets it, and so does
-- every outbox created later; the relay puts it in the envelope as actorId.
do $$
declare
  outbox record;
begin
  for outbox in select table_schema from information_schema.tables where table_name = 'outbox' loop
    execute format('alter table %I.outbox add column actor_id uuid', outbox.table_schema);
  end loop;
end
$$;

create or replace function platform.create_outbox(target_schema text) returns void
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
      claimed_until timestamptz,
      traceparent text,
      actor_id uuid
    );
    create index %2$I on %1$I.outbox (seq) where published_at is null;
  $ddl$, target_schema, target_schema || '_outbox_pending');
end
$$;

-- Down Migration
do $$
declare
  outbox record;
begin
  for outbox in select table_schema from information_schema.tables where table_name = 'outbox' loop
    execute format('alter table %I.outbox drop column actor_id', outbox.table_schema);
  end loop;
end
$$;
