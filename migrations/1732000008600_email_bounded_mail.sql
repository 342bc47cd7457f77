-- Up Migration
-- A mail over MAIL_MAX_MESSAGE_BYTES is never fetched whole: opening it keeps the start of its text
-- (`partial`) and the list of its attachments, each naming its IMAP body part instead of holding its
-- bytes; a download streams that part from the server.
alter table email.messages add column partial boolean not null default false;
alter table email.attachments alter column content drop not null;
alter table email.attachments add column part text;
alter table email.attachments add constraint attachments_content_or_part check (content is not null or part is not null);

-- Down Migration
delete from email.attachments where content is null;
alter table email.attachments drop constraint attachments_content_or_part;
alter table email.attachments drop column part;
alter table email.attachments alter column content set not null;
alter table email.messages drop column partial;
