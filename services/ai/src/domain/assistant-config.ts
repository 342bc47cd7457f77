import { ASSISTANT_LIMITS, type AssistantConfig } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';

/** `temperature` is numeric(2,1): postgres.js reads numerics as text so no precision is lost on the way. */
export interface AssistantConfigRow extends Omit<AssistantConfig, 'temperature'> {
  temperature: string;
}

export function toAssistantConfig(row: AssistantConfigRow): AssistantConfig {
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
  };
}

const { step } = ASSISTANT_LIMITS.temperature;

/**
 * The rules the schema cannot say: the temperature moves in steps of 0.1 (JSON Schema's multipleOf fails on
 * 0.3 / 0.1 = 2.9999999999999996), a name is more than blanks, and variable lists hold each trimmed,
 * non-empty entry once, as the screen adds them.
 */
export function normalizeAssistantConfig(body: AssistantConfig): AssistantConfig {
  const name = body.name.trim();
  if (name === '') throw badRequest('El nombre del asistente es requerido', 'VALIDATION_ERROR');
  const steps = body.temperature / step;
  if (Math.abs(steps - Math.round(steps)) > 1e-9) {
    throw badRequest('La temperatura va de 0 a 1 en pasos de 0,1', 'VALIDATION_ERROR');
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
  };
}

function uniqueTrimmed(values: readonly string[]): string[] {
  return [...new Set(values.map((v) => v.trim()).filter((v) => v !== ''))];
}
