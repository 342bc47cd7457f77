import { DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from '@asistente/contracts';

/** Spec section 9 and the assistant form's rules. */
export const MAX_TOKENS = { min: 100, max: 4000 };
export const MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini'] as const;
export const SOURCES: { value: AssistantConfig['internalSources'][number]; label: string }[] = [
  { value: 'contacts', label: 'Contactos' },
  { value: 'emails', label: 'Correos' },
  { value: 'whatsapp', label: 'WhatsApp' },
  { value: 'calendar', label: 'Calendario' },
];

/** The browser's copy of the configuration (spec: the config is also kept in local storage). */
export const STORAGE_KEY = 'assistantConfig';

export function defaultConfig(): AssistantConfig {
  return structuredClone(DEFAULT_ASSISTANT_CONFIG);
}

export function readStoredConfig(): AssistantConfig | null {
  try {
    const text = localStorage.getItem(STORAGE_KEY);
    if (!text) return null;
    const parsed = JSON.parse(text) as Partial<AssistantConfig>;
    return typeof parsed.name === 'string' && typeof parsed.systemPrompt === 'string' ? { ...defaultConfig(), ...parsed } : null;
  } catch {
    return null;
  }
}

export function storeConfig(config: AssistantConfig): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(config));
  } catch (err) {
    console.error('No se pudo guardar la configuración en el navegador', err);
  }
}

/** The form's own fields back to the defaults; the automatic-answer settings (another card) stay as they are. */
export function restoreDefaults(current: AssistantConfig): AssistantConfig {
  const d = defaultConfig();
  return {
    ...current,
    name: d.name,
    goal: d.goal,
    tone: d.tone,
    systemPrompt: d.systemPrompt,
    variables: d.variables,
    customVars: d.customVars,
    internalSources: d.internalSources,
    allowWeb: d.allowWeb,
    model: d.model,
    temperature: d.temperature,
    maxTokens: d.maxTokens,
  };
}

/** A problem with the form in the words the user reads, or null when it can be saved. */
export function validateConfig(config: AssistantConfig): string | null {
  if (!config.name.trim()) return 'El nombre del asistente es requerido';
  if (!Number.isInteger(config.maxTokens) || config.maxTokens < MAX_TOKENS.min || config.maxTokens > MAX_TOKENS.max) {
    return `Los tokens máximos deben estar entre ${MAX_TOKENS.min} y ${MAX_TOKENS.max}`;
  }
  if (config.temperature < 0 || config.temperature > 1) return 'La temperatura debe estar entre 0 y 1';
  return null;
}

/** Adds a variable typed by the user (on Enter): trimmed, non-empty, once. */
export function addVariable(list: readonly string[], raw: string): string[] {
  const value = raw.trim();
  if (!value || list.includes(value)) return [...list];
  return [...list, value];
}
