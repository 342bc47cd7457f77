-- Up Migration
-- The search column also carries the phone's digits alone, so '611 22 33 44'
-- finds '+34 611-22-33-44' whatever the formatting either side. A generated
-- column's expression cannot change in place: it is dropped and added again
-- (with its trigram index).
drop index contacts.contacts_search_trgm;
alter table contacts.contacts drop column search;
alter table contacts.contacts add column search text generated always as (
  contacts.fold(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' ||
    coalesce(phone, '') || ' ' || coalesce(company, '') || ' ' ||
    regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g'))
) stored;
create index contacts_search_trgm on contacts.contacts using gin (search gin_trgm_ops);
-- Sorting by name or company walks an index, both ways, like the date order.
create index contacts_user_name on contacts.contacts (user_id, lower(first_name), lower(last_name), id);
create index contacts_user_company on contacts.contacts (user_id, lower(company), id);

-- Down Migration
drop index contacts.contacts_user_company;
drop index contacts.contacts_user_name;
drop index contacts.contacts_search_trgm;
alter table contacts.contacts drop column search;
alter table contacts.contacts add column search text generated always as (
  contacts.fold(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' ||
    coalesce(phone, '') || ' ' || coalesce(company, ''))
) stored;
create index contacts_search_trgm on contacts.contacts using gin (search gin_trgm_ops);
