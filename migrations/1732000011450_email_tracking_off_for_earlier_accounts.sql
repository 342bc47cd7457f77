-- Up Migration
-- Open and click tracking is the owner's informed choice (EU privacy rules). Accounts connected before the
-- switch was explained (2026-11-26) had it on without their owners ever choosing: it goes off, and the
-- account card's switch, which says what tracking does, turns it back on for those who want it.
update email.accounts set track_default = false where track_default and created_at < timestamptz '2026-11-26 00:00:00+00';

-- Down Migration
-- Which owners had tracking on without choosing it is not kept: nothing to restore.
select 1;
