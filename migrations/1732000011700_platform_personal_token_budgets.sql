-- Up Migration
-- Each personal token's requests in its current minute, one row per token, shared by every replica: the
-- gateway spends one per request and the MCP server the rest of a JSON-RPC batch (a batch of 100 calls is
-- 100 requests), so the limit is one count whichever gateway or service replica a request reaches. The row
-- is rewritten when its minute is over and goes with its token.
create table platform.personal_token_budgets (
  token_id uuid primary key references platform.personal_tokens (id) on delete cascade,
  window_started_at timestamptz not null,
  used integer not null check (used >= 0)
);

-- Down Migration
drop table platform.personal_token_budgets;
