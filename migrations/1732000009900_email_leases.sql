-- Up Migration
-- The replica that holds a mailbox's sync and IDLE connection: it renews the lease every few seconds, and
-- another replica takes the account over once the lease runs out (its holder died) or is released (it
-- stopped). Every replica serves the API from the rows either way.
alter table email.accounts add column lease_owner text, add column lease_until timestamptz;

-- One row per send asked with an Idempotency-Key (or without one, under a key of its own): a retried request
-- finds the send it repeats and answers its result instead of sending again. `sent_id` is the mail's id and
-- Message-ID from the first attempt on. 'sending' rows whose request died stay, so nothing ever sends twice.
create table email.send_requests (
  user_id uuid not null,
  key text not null,
  -- What was asked: the same key with another request is refused rather than answered with this result.
  fingerprint text not null,
  sent_id uuid not null,
  state text not null default 'sending' check (state in ('sending', 'sent')),
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
create index send_requests_created on email.send_requests (created_at);

-- Down Migration
drop table email.send_requests;
alter table email.accounts drop column lease_owner, drop column lease_until;
