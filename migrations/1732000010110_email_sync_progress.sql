-- The first sync of an account (or of a folder whose UIDVALIDITY changed): how many mails its window holds
-- and how many are stored so far, so the inbox says "Sincronizando tu correo… 120 de 340" meanwhile.
-- Null when no such sync is running. Kept on the account row: the replica that syncs it is not always the
-- one that answers the screen.
alter table email.accounts add column sync_total integer check (sync_total >= 0);
alter table email.accounts add column sync_stored integer check (sync_stored >= 0);
