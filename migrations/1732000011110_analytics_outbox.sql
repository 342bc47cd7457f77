-- Up Migration
-- Analytics published nothing until now; its part of an account's erasure is reported through an outbox
-- like every other service's (account.erasure.progressed, written with the erasure's transaction).
select platform.create_outbox('analytics');

-- Down Migration
drop table analytics.outbox;
