-- Open and click tracking is the owner's informed choice per account (EU privacy rules): off for accounts
-- connected from now on. Accounts already here keep what they had, which was tracking on: their owners'
-- statistics do not stop without warning, and the account card now explains the switch to turn it off.
alter table email.accounts add column track_default boolean not null default true;
alter table email.accounts alter column track_default set default false;
