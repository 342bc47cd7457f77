-- Up Migration
-- CONDSTORE (RFC 7162): the folder's HIGHESTMODSEQ when its flags were last read, so the next sync asks
-- only for what changed since (CHANGEDSINCE). Null: the server has no CONDSTORE, or not read yet.
alter table email.folders add column highest_modseq bigint;

-- Down Migration
alter table email.folders drop column highest_modseq;
