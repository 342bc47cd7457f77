import type { AiChatState, AiUsageToday, AssistantConfig } from '@asistente/contracts';

/** The automatic-answer settings this folder edits, as the screen holds them. */
export interface AutoReplySettingsValue {
  autoReply: boolean;
  maxRepliesPerChatPerDay: number;
  dailyBudgetUsd: number;
  canBookMeetings: boolean;
  handoffPhrase: string;
}

/** The server fills these in every answer; the defaults stand in for an answer from before they existed. */
export function autoReplySettings(config: AssistantConfig): AutoReplySettingsValue {
  return {
    autoReply: config.autoReply ?? false,
    maxRepliesPerChatPerDay: config.maxRepliesPerChatPerDay ?? 20,
    dailyBudgetUsd: config.dailyBudgetUsd ?? 1,
    canBookMeetings: config.canBookMeetings ?? false,
    handoffPhrase: config.handoffPhrase ?? '',
  };
}

/** A dollar amount as the owner reads it: cents for what a day costs, more digits for one run's fraction of a cent. */
export function formatUsd(value: number): string {
  const digits = value !== 0 && Math.abs(value) < 0.01 ? 6 : 2;
  return `${value.toLocaleString('es-ES', { minimumFractionDigits: 2, maximumFractionDigits: digits })} USD`;
}

export function formatTokens(value: number): string {
  return value.toLocaleString('es-ES');
}

const REASONS: Record<NonNullable<AiChatState['reason']>, string> = {
  manual: 'En pausa: la pausaste tú',
  owner_takeover: 'En pausa: respondiste desde tu teléfono',
  handoff: 'En pausa: el cliente pidió hablar con una persona',
  daily_cap: 'En pausa: este chat alcanzó el máximo de respuestas de hoy',
  daily_budget: 'En pausa: se alcanzó el presupuesto diario',
  team: 'En pausa: una persona del equipo atiende esta conversación',
};

/** One Spanish line saying whether the assistant answers this chat, and if not, why (and until when). */
export function chatStateLabel(state: AiChatState): string {
  if (!state.paused) return 'Asistente activo en este chat';
  const reason = state.reason ? REASONS[state.reason] : 'En pausa';
  if (!state.pausedUntil) return reason;
  const until = new Date(state.pausedUntil).toLocaleTimeString('es-ES', { hour: '2-digit', minute: '2-digit' });
  return `${reason} (hasta las ${until})`;
}

/** Checks the screen can make before saving; the server checks again with the same words. */
export function validateSettings(value: AutoReplySettingsValue): string | null {
  if (!Number.isInteger(value.maxRepliesPerChatPerDay) || value.maxRepliesPerChatPerDay < 1 || value.maxRepliesPerChatPerDay > 200) {
    return 'Las respuestas por chat y día deben estar entre 1 y 200';
  }
  if (!Number.isFinite(value.dailyBudgetUsd) || value.dailyBudgetUsd < 0 || value.dailyBudgetUsd > 1000) {
    return 'El presupuesto diario debe estar entre 0 y 1000 USD';
  }
  if (value.handoffPhrase.trim() === '') return 'Escribe la frase con la que el asistente pasa la conversación a una persona';
  return null;
}

/** Today's spend against the budget, and a warning once the automatic answers stopped for it. */
export function usageLabel(usage: AiUsageToday): { text: string; warning: string | null } {
  return {
    text: `Gasto de hoy: ${formatUsd(usage.spentUsd)} de ${formatUsd(usage.dailyBudgetUsd)}`,
    warning: usage.budgetReached ? 'El asistente dejó de responder por hoy: se alcanzó el presupuesto diario.' : null,
  };
}

/**
 * The configuration without the fields the automatic-answer card owns: what the Prompts IA form saves, so
 * its copy (loaded earlier, or kept in local storage) never overwrites what that card saved since. The
 * server keeps the stored value of a field a PUT leaves out.
 */
export function withoutAutoReplySettings(config: AssistantConfig): AssistantConfig {
  const {
    autoReply: _autoReply,
    maxRepliesPerChatPerDay: _maxReplies,
    dailyBudgetUsd: _budget,
    canBookMeetings: _canBook,
    handoffPhrase: _handoff,
    variableValues: _values,
    ...rest
  } = config;
  return rest;
}

/** The variables whose value the owner writes: all of the prompt's except {nombre_cliente}, which the contact fills. */
export function editableVariables(config: AssistantConfig): string[] {
  return [...new Set([...config.variables, ...config.customVars])].filter((variable) => variable !== '{nombre_cliente}');
}
