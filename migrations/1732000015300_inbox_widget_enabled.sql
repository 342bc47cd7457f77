-- Up Migration
-- The website's chat can be switched off (the messaging port's disconnect) without losing its key: the owner's
-- snippet keeps working once it is switched on again. Off, visitors get no chat and members cannot answer.
alter table inbox.widgets add column enabled boolean not null default true;

-- Down Migration
alter table inbox.widgets drop column enabled;
