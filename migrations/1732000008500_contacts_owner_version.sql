-- Up Migration
-- A version per owner, bumped whenever the owner's counts change, that is by every statement that writes
-- the owner's contacts (the statement triggers that keep the counts upsert this row). A search's total,
-- which for a term matching most rows means reading a thousand of them, is remembered with the version it
-- was counted at and reused while the version holds.
alter table contacts.owner_counts add column version bigint not null default 0;

create function contacts.bump_owner_version() returns trigger language plpgsql as $$
begin
  new.version := old.version + 1;
  return new;
end
$$;

create trigger owner_counts_version before update on contacts.owner_counts
  for each row execute function contacts.bump_owner_version();

-- Down Migration
drop trigger owner_counts_version on contacts.owner_counts;
drop function contacts.bump_owner_version();
alter table contacts.owner_counts drop column version;
