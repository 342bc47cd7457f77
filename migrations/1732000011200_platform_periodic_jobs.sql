-- Up Migration
-- Jobs that run once per period across every replica (packages/kit/src/db/periodic-job.ts): one row per job
-- names the period last claimed, the replica holding it and until when, and when that run finished. A
-- replica claims a new period in one upsert, so two asking at once get one claim; a holder that died is
-- taken over once its lease runs out.
create table platform.periodic_jobs (
  name text primary key,
  period text not null,
  owner text not null,
  lease_until timestamptz not null,
  done_at timestamptz
);

-- Down Migration
drop table platform.periodic_jobs;
