import type { AiModel } from './ai.js';

/**
 * USD per million tokens (OpenAI's list prices for standard chat completions, November 2026): what the AI
 * service charges a run at, and what the OpenAI screen estimates a month with.
 */
export const AI_MODEL_PRICES_PER_MILLION: Record<AiModel, { input: number; output: number }> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
};
