-- Up Migration
-- Contacts are shared by the workspace's members: which member created a contact and which last changed it,
-- each set from the member whose request wrote the row (create, edit, merge, bulk tags, restore, import).
-- An import records the member who imported, for the rows it creates and the rows it changes; the CLI's
-- import goes through the API with its member's session or personal token, so it names that member too.
-- Null where no member wrote: the workspace's own work (WhatsApp's contact sync and the assistant answering a
-- customer call the contacts service as the workspace), the demo's seeded contacts, and rows from before.
-- Member ids, not references: a member who leaves keeps their id on what they wrote.
alter table contacts.contacts add column created_by uuid;
alter table contacts.contacts add column updated_by uuid;
-- A bulk delete keeps the creator in the trash; "Deshacer" puts it back, and the member who restored the
-- contacts is the last to have written them.
alter table contacts.trash add column created_by uuid;

-- Down Migration
alter table contacts.trash drop column created_by;
alter table contacts.contacts drop column updated_by;
alter table contacts.contacts drop column created_by;
