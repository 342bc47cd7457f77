import { AI_MODEL_PRICES_PER_MILLION, type AiModel } from '@asistente/contracts';

/**
 * The month the estimate assumes: 1,000 automatic answers, each reading ~1,500 tokens (the instructions,
 * the recent conversation and what it looked up) and writing ~200 (a short WhatsApp answer).
 */
export const TYPICAL_MONTH = { answers: 1000, inputTokens: 1500, outputTokens: 200 } as const;

/** What a typical month costs with `model` at OpenAI's list prices, in US dollars. */
export function typicalMonthUsd(model: AiModel): number {
  const price = AI_MODEL_PRICES_PER_MILLION[model];
  const perAnswer = (TYPICAL_MONTH.inputTokens * price.input + TYPICAL_MONTH.outputTokens * price.output) / 1_000_000;
  return perAnswer * TYPICAL_MONTH.answers;
}

const usd = new Intl.NumberFormat('es-ES', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** `0,35 US$`, in Spanish (the decimal comma, the symbol after). */
export const formatUsd = (amount: number) => usd.format(amount);
