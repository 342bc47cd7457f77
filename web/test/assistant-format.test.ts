import t from 'tap';
import { DEFAULT_ASSISTANT_CONFIG } from '@asistente/contracts';
import { autoReplySettings, chatStateLabel, editableVariables, formatUsd, usageLabel, validateSettings, withoutAutoReplySettings } from '../src/features/whatsapp/assistant/format.js';

t.test('costs read in dollars: cents for a day, a run’s fraction of a cent in full', async (t) => {
  t.equal(formatUsd(1.5), '1,50 USD');
  t.equal(formatUsd(0), '0,00 USD');
  t.equal(formatUsd(0.0075), '0,0075 USD');
  t.equal(formatUsd(0.000018), '0,000018 USD');
});

t.test('the chat state says why the assistant is silent, and until when', async (t) => {
  t.equal(chatStateLabel({ paused: false, pausedUntil: null, reason: null }), 'Asistente activo en este chat');
  t.equal(chatStateLabel({ paused: true, pausedUntil: null, reason: 'daily_budget' }), 'En pausa: se alcanzó el presupuesto diario');
  t.equal(chatStateLabel({ paused: true, pausedUntil: null, reason: 'handoff' }), 'En pausa: el cliente pidió hablar con una persona');
  const until = new Date(2026, 10, 23, 14, 5).toISOString();
  t.equal(chatStateLabel({ paused: true, pausedUntil: until, reason: 'owner_takeover' }), 'En pausa: respondiste desde tu teléfono (hasta las 14:05)');
});

t.test('settings are read with their defaults and checked with the server’s words', async (t) => {
  const settings = autoReplySettings(DEFAULT_ASSISTANT_CONFIG);
  t.match(settings, { autoReply: false, canBookMeetings: false, maxRepliesPerChatPerDay: 20, dailyBudgetUsd: 1 });
  t.equal(validateSettings(settings), null);
  t.equal(validateSettings({ ...settings, maxRepliesPerChatPerDay: 0 }), 'Las respuestas por chat y día deben estar entre 1 y 200');
  t.equal(validateSettings({ ...settings, dailyBudgetUsd: Number.NaN }), 'El presupuesto diario debe estar entre 0 y 1000 USD');
  t.equal(validateSettings({ ...settings, handoffPhrase: ' ' }), 'Escribe la frase con la que el asistente pasa la conversación a una persona');
});

t.test('today’s spend, and why the automatic answers stopped', async (t) => {
  t.same(usageLabel({ spentUsd: 0.25, dailyBudgetUsd: 1, budgetReached: false }), { text: 'Gasto de hoy: 0,25 USD de 1,00 USD', warning: null });
  t.equal(usageLabel({ spentUsd: 1.02, dailyBudgetUsd: 1, budgetReached: true }).warning, 'El asistente dejó de responder por hoy: se alcanzó el presupuesto diario.');
});

t.test('the variables the owner fills, and what the Prompts IA form leaves to the other cards', async (t) => {
  t.same(editableVariables({ ...DEFAULT_ASSISTANT_CONFIG, customVars: ['{sabor}', '{precio}'] }), ['{producto}', '{precio}', '{horario_atencion}', '{enlace_pago}', '{sabor}']);
  const form = withoutAutoReplySettings(DEFAULT_ASSISTANT_CONFIG);
  for (const key of ['autoReply', 'maxRepliesPerChatPerDay', 'dailyBudgetUsd', 'canBookMeetings', 'handoffPhrase', 'variableValues']) t.notOk(key in form, key);
  t.equal(form.systemPrompt, DEFAULT_ASSISTANT_CONFIG.systemPrompt);
});
