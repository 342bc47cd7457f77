-- Up Migration
-- Who did it: the member whose session acted, and their name as it was then, so the workspace's log still
-- says who after they leave (their id then points nowhere). Earlier rows have none (the owner was the only one).
alter table auth.security_activity add column actor_id uuid, add column actor_name text;

-- Down Migration
alter table auth.security_activity drop column actor_name, drop column actor_id;
