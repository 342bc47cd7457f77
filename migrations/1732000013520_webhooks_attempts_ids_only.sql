-- Up Migration
-- "Solo identificadores": the endpoint's payloads carry ids alone, the shape before they carried the record's fields.
alter table webhooks.endpoints add column ids_only boolean not null default false;

-- Every attempt of a delivery as it ended: "Reenviar" and each retry add a row, so the first failure stays in
-- the log beside the success that followed. The delivery row keeps the last outcome (and the queue's state);
-- its purge and its endpoint's deletion take these with it.
create table webhooks.delivery_attempts (
  delivery_id uuid not null references webhooks.deliveries (id) on delete cascade,
  user_id uuid not null,
  attempt integer not null,
  status text not null check (status in ('delivered', 'failed')),
  response_status integer,
  latency_ms integer,
  error text,
  attempted_at timestamptz not null,
  primary key (delivery_id, attempt)
);
create index webhooks_delivery_attempts_user on webhooks.delivery_attempts (user_id);

-- The log so far knew only each delivery's last attempt: it becomes that attempt's row.
insert into webhooks.delivery_attempts (delivery_id, user_id, attempt, status, response_status, latency_ms, error, attempted_at)
select id, user_id, attempts, case when status = 'delivered' then 'delivered' else 'failed' end, response_status, latency_ms, error, last_attempt_at
from webhooks.deliveries
where attempts > 0 and last_attempt_at is not null and claim_id is null and (status <> 'pending' or error is not null);

-- WhatsApp events now carry a message's text and sender for the webhooks; the owner's retention strips them
-- from the outbox with the messages. This index holds only the rows still carrying a text.
create index whatsapp_outbox_texts on whatsapp.outbox (user_id, occurred_at) where data ? 'text';

-- Down Migration
drop index whatsapp.whatsapp_outbox_texts;
drop table webhooks.delivery_attempts;
alter table webhooks.endpoints drop column ids_only;
