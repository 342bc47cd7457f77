import { AI_MODEL_PRICES_PER_MILLION, type AiModel } from '@asistente/contracts';

/** The cost of one run at the list prices (shared with the web's monthly estimate), rounded to a millionth of a dollar (what ai.runs stores). */
export function costUsd(model: AiModel, usage: { promptTokens: number; completionTokens: number }): number {
  const price = AI_MODEL_PRICES_PER_MILLION[model];
  const cost = (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1_000_000;
  return Math.round(cost * 1_000_000) / 1_000_000;
}
