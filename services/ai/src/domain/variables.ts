/** What a variable with no value stands for in the prompt: the model reads that it does not know it. */
export const MISSING_VALUE = '(dato no disponible)';

const VARIABLE = /\{[A-Za-z0-9_áéíóúñÁÉÍÓÚÑ]+\}/g;

/**
 * Replaces every `{variable}` of `text` with its value: the stored values of the configuration, then the
 * ones known at run time (`{nombre_cliente}` from the contact) which win. A variable with no value reads
 * as MISSING_VALUE, so `{precio}` never reaches the model as a placeholder it might fill by guessing.
 */
export function substituteVariables(text: string, stored: Record<string, string>, runtime: Record<string, string | undefined>): string {
  return text.replace(VARIABLE, (variable) => runtime[variable] ?? stored[variable] ?? MISSING_VALUE);
}
