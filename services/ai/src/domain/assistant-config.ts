import { ASSISTANT_LIMITS, DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';

/** The configuration as stored and answered: every field present, the automatic-answer ones included. */
export type FullAssistantConfig = Required<AssistantConfig>;

export const DEFAULT_CONFIG = DEFAULT_ASSISTANT_CONFIG as FullAssistantConfig;

/** `temperature` and `dailyBudgetUsd` are numerics: postgres.js reads them as text so no precision is lost on the way. */
export interface AssistantConfigRow extends Omit<FullAssistantConfig, 'temperature' | 'dailyBudgetUsd' | 'variableValues'> {
  temperature: string;
  dailyBudgetUsd: string;
  /** Stored as [[variable, value], …] (see the repository). */
  variableValues: [string, string][];
}

export function toAssistantConfig(row: AssistantConfigRow): FullAssistantConfig {
  return {
    name: row.name,
    goal: row.goal,
    tone: row.tone,
    systemPrompt: row.systemPrompt,
    variables: row.variables,
    customVars: row.customVars,
    internalSources: row.internalSources,
    allowWeb: row.allowWeb,
    model: row.model,
    temperature: Number(row.temperature),
    maxTokens: row.maxTokens,
    variableValues: Object.fromEntries(row.variableValues),
    autoReply: row.autoReply,
    maxRepliesPerChatPerDay: row.maxRepliesPerChatPerDay,
    dailyBudgetUsd: Number(row.dailyBudgetUsd),
    canBookMeetings: row.canBookMeetings,
    handoffPhrase: row.handoffPhrase,
  };
}

const { step } = ASSISTANT_LIMITS.temperature;

/**
 * The rules the schema cannot say: the temperature moves in steps of 0.1 (JSON Schema's multipleOf fails on
 * 0.3 / 0.1 = 2.9999999999999996), a name is more than blanks, and variable lists hold each trimmed,
 * non-empty entry once, as the screen adds them. Fields a client left out keep their `current` value.
 */
export function normalizeAssistantConfig(body: AssistantConfig, current: FullAssistantConfig): FullAssistantConfig {
  const name = body.name.trim();
  if (name === '') throw badRequest('El nombre del asistente es requerido', 'VALIDATION_ERROR');
  const steps = body.temperature / step;
  if (Math.abs(steps - Math.round(steps)) > 1e-9) {
    throw badRequest('La temperatura va de 0 a 1 en pasos de 0,1', 'VALIDATION_ERROR');
  }
  const handoffPhrase = (body.handoffPhrase ?? current.handoffPhrase).trim();
  if (handoffPhrase === '') {
    throw badRequest('Escribe la frase con la que el asistente pasa la conversación a una persona', 'VALIDATION_ERROR');
  }
  const dailyBudgetUsd = body.dailyBudgetUsd ?? current.dailyBudgetUsd;
  if (Math.abs(dailyBudgetUsd * 100 - Math.round(dailyBudgetUsd * 100)) > 1e-6) {
    throw badRequest('El presupuesto diario admite como máximo dos decimales', 'VALIDATION_ERROR');
  }
  return {
    ...body,
    name,
    goal: body.goal.trim(),
    tone: body.tone.trim(),
    systemPrompt: body.systemPrompt.trim(),
    variables: uniqueTrimmed(body.variables),
    customVars: uniqueTrimmed(body.customVars),
    // 0.30000000000000004 would survive the check above; store the decimal the user meant.
    temperature: Number((Math.round(steps) * step).toFixed(1)),
    variableValues: trimmedValues(body.variableValues ?? current.variableValues),
    autoReply: body.autoReply ?? current.autoReply,
    maxRepliesPerChatPerDay: body.maxRepliesPerChatPerDay ?? current.maxRepliesPerChatPerDay,
    dailyBudgetUsd: Number(dailyBudgetUsd.toFixed(2)),
    canBookMeetings: body.canBookMeetings ?? current.canBookMeetings,
    handoffPhrase,
  };
}

function uniqueTrimmed(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
}

/** Blank names and values dropped: an empty value means "not set", as if the entry were absent. */
function trimmedValues(values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (key.trim() !== '' && value.trim() !== '') out[key.trim()] = value.trim();
  }
  return out;
}
