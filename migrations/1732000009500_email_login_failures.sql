-- Up Migration
-- Refused logins to a mail server through the account form (test and connect), one row each, kept for the
-- window they count in: at most so many per user and per server host, whichever replica answers.
-- A row is written before the attempt and removed when it did not end in a refused password, so attempts
-- in flight count too.
create table email.login_failures (
  id bigint generated always as identity primary key,
  key text not null,
  failed_at timestamptz not null default now()
);
create index login_failures_key_at on email.login_failures (key, failed_at);
create index login_failures_at on email.login_failures (failed_at);

-- Down Migration
drop table email.login_failures;
