-- Up Migration
-- The AI metrics read today's runs of every account at scrape time (runs, cost, accounts at their daily
-- budget): this index keeps that read to today's rows instead of the whole history.
create index ai_runs_created_at on ai.runs (created_at);

-- Down Migration
drop index ai.ai_runs_created_at;
