import { DEFAULT_ASSISTANT_CONFIG } from '@asistente/contracts';
import { scrapeGauge, type Platform } from '@asistente/kit';
import { LanguageModelError, type LanguageModel } from './domain/language-model.js';

/** An account that never saved its assistant has the default budget. */
const DEFAULT_BUDGET_USD = DEFAULT_ASSISTANT_CONFIG.dailyBudgetUsd ?? 1;

/** Midnight UTC of today: the daily budget counts calendar days in UTC (as RunsRepository does). */
const TODAY = "date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'";

/**
 * The assistant on the process's registry. Today's runs, their cost and the accounts whose automatic answers
 * stopped at their daily budget are read from `ai.runs` at scrape time (today's rows only, by the created_at
 * index), so every replica reports the same figures and a restart loses none. The model's calls by outcome
 * and the tokens it used are counted as they happen, by wrapping the model.
 */
export function registerAiMetrics(platform: Platform, model: LanguageModel): LanguageModel {
  const { metrics, log } = platform;
  const { sql } = platform.db;
  const today = sql.unsafe(TODAY);
  scrapeGauge<'trigger'>(metrics, {
    name: 'asistente_ai_runs_today',
    help: 'Assistant runs completed today (UTC), by trigger: manual (the owner asked) or whatsapp (automatic answer).',
    labelNames: ['trigger'],
    log,
    read: async () => {
      const rows = await sql<{ trigger: string; n: number }[]>`
        select trigger, count(*)::int as n from ai.runs where created_at >= ${today} group by trigger`;
      const byTrigger = new Map([['manual', 0], ['whatsapp', 0]]);
      for (const row of rows) byTrigger.set(row.trigger, row.n);
      return [...byTrigger].map(([trigger, value]) => ({ labels: { trigger }, value }));
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_ai_cost_usd_today',
    help: 'What the assistant runs of every account cost today (UTC), in US dollars.',
    log,
    read: async () => {
      const [row] = await sql<{ cost: string }[]>`select coalesce(sum(cost_usd), 0) as cost from ai.runs where created_at >= ${today}`;
      return [{ value: Number(row?.cost ?? 0) }];
    },
  });
  scrapeGauge(metrics, {
    name: 'asistente_ai_budget_reached_accounts',
    help: "Accounts whose assistant spent its daily budget today: its automatic answers are paused until tomorrow (UTC).",
    log,
    read: async () => {
      const [row] = await sql<{ n: number }[]>`
        select count(*)::int as n from (
          select r.user_id from ai.runs r left join ai.assistant_configs c on c.user_id = r.user_id
          where r.created_at >= ${today}
          group by r.user_id, c.daily_budget_usd
          having sum(r.cost_usd) >= coalesce(c.daily_budget_usd, ${DEFAULT_BUDGET_USD})
        ) as reached`;
      return [{ value: row?.n ?? 0 }];
    },
  });
  const calls = metrics.counter<'outcome'>({
    name: 'asistente_ai_model_calls_total',
    help: 'Calls to the language model by outcome: ok, auth, quota, rate_limited, unavailable, timeout, rejected or error.',
    labelNames: ['outcome'],
  });
  const tokens = metrics.counter<'kind'>({
    name: 'asistente_ai_tokens_total',
    help: 'Tokens the language model read (prompt) and wrote (completion).',
    labelNames: ['kind'],
  });
  const prompt = tokens.labels({ kind: 'prompt' });
  const completion = tokens.labels({ kind: 'completion' });
  const ok = calls.labels({ outcome: 'ok' });
  return {
    async complete(request) {
      try {
        const answer = await model.complete(request);
        ok.inc();
        prompt.inc(answer.usage.promptTokens);
        completion.inc(answer.usage.completionTokens);
        return answer;
      } catch (error) {
        calls.inc({ outcome: error instanceof LanguageModelError ? error.kind : 'error' });
        throw error;
      }
    },
  };
}
