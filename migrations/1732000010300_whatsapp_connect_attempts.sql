-- Up Migration
-- A WhatsApp account that never linked stops retrying after a bounded number of failed attempts (or time):
-- its state becomes 'failed', which every replica answers from this row, until the owner presses "Reintentar".
-- The attempts are counted here, not in a replica's memory, so a socket taken over by another replica keeps
-- counting from where the first one stopped.
alter table whatsapp.accounts drop constraint accounts_state_check;
alter table whatsapp.accounts add constraint accounts_state_check
  check (state in ('disconnected', 'connecting', 'qr', 'connected', 'logged_out', 'error', 'failed'));
alter table whatsapp.accounts
  add column failed_attempts integer not null default 0,
  add column first_failed_at timestamptz;

-- Down Migration
alter table whatsapp.accounts drop column failed_attempts, drop column first_failed_at;
update whatsapp.accounts set state = 'disconnected' where state = 'failed';
alter table whatsapp.accounts drop constraint accounts_state_check;
alter table whatsapp.accounts add constraint accounts_state_check
  check (state in ('disconnected', 'connecting', 'qr', 'connected', 'logged_out', 'error'));
