-- Up Migration
-- The W3C traceparent of the consumer span that wrote the delivery (null with tracing off): each attempt's
-- span links back to it, so an operator follows a webhook from the request that caused it (issue 23).
alter table webhooks.deliveries add column traceparent text;

-- Down Migration
alter table webhooks.deliveries drop column traceparent;
