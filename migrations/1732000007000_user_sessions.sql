-- Up Migration
-- One row per existing user: tokens issued before valid_after stop working
-- (a password change ends the other sessions; kept_jti is the one that made
-- it), and a token whose user has no row is refused by every service.
create table platform.user_sessions (
  user_id uuid primary key references auth.users (id) on delete cascade,
  valid_after timestamptz not null default 'epoch',
  kept_jti text
);

insert into platform.user_sessions (user_id) select id from auth.users;

create function platform.track_user_session() returns trigger
language plpgsql
as $$
begin
  insert into platform.user_sessions (user_id) values (new.id) on conflict (user_id) do nothing;
  return new;
end
$$;

create trigger users_track_sessions after insert on auth.users
  for each row execute function platform.track_user_session();

-- Down Migration
drop trigger users_track_sessions on auth.users;
drop function platform.track_user_session();
drop table platform.user_sessions;
