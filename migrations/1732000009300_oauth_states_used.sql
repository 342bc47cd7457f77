-- Up Migration
-- OAuth states already used by a callback (packages/kit/src/auth/used-oauth-states.ts): a state connects
-- once, whichever replica sees it first. Rows live a little past the state's expiry, then the next use sweeps them.
create function platform.create_oauth_states_used(target_schema text) returns void
language plpgsql
as $$
begin
  execute format($ddl$
    create table %1$I.oauth_states_used (
      id text primary key,
      expires_at timestamptz not null
    );
    create index %2$I on %1$I.oauth_states_used (expires_at);
  $ddl$, target_schema, target_schema || '_oauth_states_used_expiry');
end
$$;

select platform.create_oauth_states_used('calendar');
select platform.create_oauth_states_used('email');
select platform.create_oauth_states_used('teams');

-- Down Migration
drop table teams.oauth_states_used;
drop table email.oauth_states_used;
drop table calendar.oauth_states_used;
drop function platform.create_oauth_states_used(text);
