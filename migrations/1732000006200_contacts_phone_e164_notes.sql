-- Up Migration
-- The phone in E.164 (+34611223344), set by the service with libphonenumber-js
-- (Spain by default) whenever a phone is written: one person, one key, however
-- the number was typed. Duplicates are found through its index. Existing rows
-- get the same for the common Spanish spellings; the rest stays null until edited.
alter table contacts.contacts add column phone_e164 text;
alter table contacts.contacts add column notes text;
-- Phones (E.164) and emails (lowercase) of contacts merged into this one: the
-- timeline still finds what the product knows of them under those keys.
alter table contacts.contacts add column merged_keys text[] not null default '{}';
update contacts.contacts set phone_e164 = case
    when phone ~ '^\s*\+' and length(regexp_replace(phone, '\D', '', 'g')) between 8 and 15 then '+' || regexp_replace(phone, '\D', '', 'g')
    when regexp_replace(phone, '\D', '', 'g') ~ '^00[1-9]\d{7,14}$' then '+' || substr(regexp_replace(phone, '\D', '', 'g'), 3)
    when regexp_replace(phone, '\D', '', 'g') ~ '^[6789]\d{8}$' then '+34' || regexp_replace(phone, '\D', '', 'g')
  end
where phone is not null;
create index contacts_user_phone_e164 on contacts.contacts (user_id, phone_e164) where phone_e164 is not null;
alter table contacts.trash add column phone_e164 text;
alter table contacts.trash add column notes text;
alter table contacts.trash add column merged_keys text[] not null default '{}';

-- Down Migration
alter table contacts.trash drop column merged_keys;
alter table contacts.trash drop column notes;
alter table contacts.trash drop column phone_e164;
drop index contacts.contacts_user_phone_e164;
alter table contacts.contacts drop column merged_keys;
alter table contacts.contacts drop column notes;
alter table contacts.contacts drop column phone_e164;
