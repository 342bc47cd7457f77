import t from 'tap';
import { DEFAULT_ASSISTANT_CONFIG, type AssistantConfig } from '@asistente/contracts';
import { buildServiceApp, createTestPlatform, signToken } from '@asistente/kit/testing';
import aiService from '../src/app.js';

const URL = '/ai/assistant';

// One platform for the file (a fresh PGlite costs seconds); every test signs in as users of its own.
const platform = await createTestPlatform(t);
const app = await buildServiceApp(t, aiService, platform);

const custom: AssistantConfig = {
  name: 'Lucía, asistente de la Panadería Sol',
  goal: 'Tomar pedidos de pan y pasteles',
  tone: 'Alegre',
  systemPrompt: 'Eres Lucía. Responde en español.',
  variables: ['{nombre_cliente}', '{producto}'],
  customVars: ['{sabor}'],
  internalSources: ['contacts', 'calendar'],
  allowWeb: true,
  model: 'gpt-4.1-mini',
  temperature: 0.7,
  maxTokens: 1200,
};

t.test('GET answers the Spanish sales assistant defaults until something is saved', async (t) => {
  const { authorization } = signToken(app);
  const response = await app.inject({ url: URL, headers: { authorization } });
  t.equal(response.statusCode, 200);
  const { data } = response.json<{ data: AssistantConfig }>();
  t.same(data, DEFAULT_ASSISTANT_CONFIG);
  t.match(data, {
    model: 'gpt-4o-mini',
    temperature: 0.3,
    maxTokens: 400,
    allowWeb: false,
    customVars: [],
    variables: ['{nombre_cliente}', '{producto}', '{precio}', '{horario_atencion}', '{enlace_pago}'],
    internalSources: ['contacts', 'emails', 'whatsapp', 'calendar'],
  });
  t.match(data.systemPrompt, /WhatsApp/);
  t.match(data.systemPrompt, /\{enlace_pago\}/, 'the default prompt uses the default variables');
});

t.test('PUT replaces the configuration, per user, and GET returns it as stored', async (t) => {
  const ana = signToken(app);
  const saved = await app.inject({
    method: 'PUT',
    url: URL,
    headers: { authorization: ana.authorization },
    payload: { ...custom, name: `  ${custom.name}  `, customVars: [' {sabor} ', '', '{sabor}', '{tamaño}'] },
  });
  t.equal(saved.statusCode, 200);
  // Fields a client leaves out (the automatic answers, added later) keep what is stored: the defaults here.
  const expected = { ...DEFAULT_ASSISTANT_CONFIG, ...custom, customVars: ['{sabor}', '{tamaño}'] };
  t.same(saved.json(), { success: true, data: expected }, 'trimmed, blanks dropped, repeats removed');
  t.same((await app.inject({ url: URL, headers: { authorization: ana.authorization } })).json(), { data: expected });

  const again = await app.inject({
    method: 'PUT',
    url: URL,
    headers: { authorization: ana.authorization },
    payload: { ...expected, temperature: 0, maxTokens: 4000, internalSources: [] },
  });
  t.match(again.json(), { success: true, data: { temperature: 0, maxTokens: 4000, internalSources: [] } }, 'limits are inclusive');

  const luis = signToken(app);
  t.same((await app.inject({ url: URL, headers: { authorization: luis.authorization } })).json(), { data: DEFAULT_ASSISTANT_CONFIG });
});

t.test('temperature moves in steps of 0.1', async (t) => {
  const { authorization } = signToken(app);
  for (const temperature of [0, 0.1, 0.3, 0.7, 0.9, 1]) {
    const response = await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { ...custom, temperature } });
    t.equal(response.json().data.temperature, temperature, `${temperature} accepted`);
  }
  const float = await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { ...custom, temperature: 0.1 + 0.2 } });
  t.equal(float.json().data.temperature, 0.3, '0.1 + 0.2 is stored as the 0.3 it means');
});

t.test('invalid values answer 400 with a Spanish message and change nothing', async (t) => {
  const { authorization } = signToken(app);
  const cases: [Partial<Record<keyof AssistantConfig, unknown>> & Record<string, unknown>, string][] = [
    [{ temperature: 1.1 }, 'La temperatura debe estar entre 0 y 1'],
    [{ temperature: -0.1 }, 'La temperatura debe estar entre 0 y 1'],
    [{ temperature: 0.25 }, 'La temperatura va de 0 a 1 en pasos de 0,1'],
    [{ temperature: 'alta' }, 'La temperatura debe ser un número entre 0 y 1'],
    [{ maxTokens: 50 }, 'Los tokens máximos deben estar entre 100 y 4000'],
    [{ maxTokens: 4001 }, 'Los tokens máximos deben estar entre 100 y 4000'],
    [{ maxTokens: 400.5 }, 'Los tokens máximos deben ser un número entero entre 100 y 4000'],
    [{ model: 'gpt-5' }, 'Modelo no válido: usa gpt-4o-mini, gpt-4o o gpt-4.1-mini'],
    [{ internalSources: ['contacts', 'drive'] }, 'Fuente interna no válida: usa contacts, emails, whatsapp o calendar'],
    [{ internalSources: ['emails', 'emails'] }, 'Las fuentes internas no pueden repetirse'],
    [{ internalSources: 'contacts' }, 'Las fuentes internas deben ser una lista'],
    [{ allowWeb: 'sí' }, 'La búsqueda web (allowWeb) debe ser verdadero o falso'],
    [{ name: '   ' }, 'El nombre del asistente es requerido'],
    [{ name: undefined }, 'El nombre del asistente es requerido'],
    [{ customVars: ['x'.repeat(61)] }, 'Cada variable personalizada admite como máximo 60 caracteres'],
    [{ systemPrompt: 'x'.repeat(10_001) }, 'El prompt admite como máximo 10000 caracteres'],
    [{ extra: 1 }, 'Campo no permitido: "extra"'],
    [{ autoReply: 'sí' }, 'La respuesta automática (autoReply) debe ser verdadero o falso'],
    [{ canBookMeetings: 1 }, 'Agendar reuniones (canBookMeetings) debe ser verdadero o falso'],
    [{ maxRepliesPerChatPerDay: 0 }, 'Las respuestas por chat y día deben estar entre 1 y 200'],
    [{ maxRepliesPerChatPerDay: 201 }, 'Las respuestas por chat y día deben estar entre 1 y 200'],
    [{ maxRepliesPerChatPerDay: 2.5 }, 'Las respuestas por chat y día deben ser un número entero entre 1 y 200'],
    [{ dailyBudgetUsd: -1 }, 'El presupuesto diario debe estar entre 0 y 1000 USD'],
    [{ dailyBudgetUsd: 1000.01 }, 'El presupuesto diario debe estar entre 0 y 1000 USD'],
    [{ dailyBudgetUsd: 1.234 }, 'El presupuesto diario admite como máximo dos decimales'],
    [{ dailyBudgetUsd: 'mucho' }, 'El presupuesto diario debe ser un número en USD'],
    [{ handoffPhrase: '  ' }, 'Escribe la frase con la que el asistente pasa la conversación a una persona'],
    [{ handoffPhrase: 'x'.repeat(501) }, 'La frase de traspaso admite como máximo 500 caracteres'],
    [{ variableValues: { '{precio}': 'x'.repeat(501) } }, 'Cada valor de variable admite como máximo 500 caracteres'],
    [{ variableValues: ['25 €'] }, 'Los valores de las variables deben ser un objeto'],
  ];
  for (const [change, message] of cases) {
    const response = await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { ...custom, ...change } });
    t.equal(response.statusCode, 400, JSON.stringify(change).slice(0, 60));
    t.equal(response.json().message, message);
  }
  t.same((await app.inject({ url: URL, headers: { authorization } })).json(), { data: DEFAULT_ASSISTANT_CONFIG });
});

t.test('the automatic-answer settings and variable values are stored, and kept when a PUT leaves them out', async (t) => {
  const { authorization } = signToken(app);
  const settings = {
    autoReply: true,
    maxRepliesPerChatPerDay: 5,
    dailyBudgetUsd: 2.5,
    canBookMeetings: true,
    handoffPhrase: '  Ahora te atiende Carmen.  ',
    variableValues: { '{precio}': ' 25 € ', '{nombre_cliente}': 'x', '{producto}': '  ' },
  };
  const saved = await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { ...custom, ...settings } });
  t.equal(saved.statusCode, 200);
  const stored = {
    ...custom,
    ...settings,
    handoffPhrase: 'Ahora te atiende Carmen.',
    variableValues: { '{precio}': '25 €', '{nombre_cliente}': 'x' },
  };
  t.same(saved.json().data, stored, 'trimmed; a blank value means not set; JSON keys kept verbatim');
  const older = await app.inject({ method: 'PUT', url: URL, headers: { authorization }, payload: { ...custom, tone: 'Serio' } });
  t.same(older.json().data, { ...stored, tone: 'Serio' }, 'a client that predates the new fields changes nothing of them');
});
