import type { AiModel } from '@asistente/contracts';

/** USD per million tokens (OpenAI's list prices for standard chat completions, November 2026). */
export const PRICES_PER_MILLION: Record<AiModel, { input: number; output: number }> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
};

/** The cost of one run, rounded to a millionth of a dollar (what ai.runs stores). */
export function costUsd(model: AiModel, usage: { promptTokens: number; completionTokens: number }): number {
  const price = PRICES_PER_MILLION[model];
  const cost = (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
  return Math.round(cost * 1_000_000) / 1_000_000;
}
