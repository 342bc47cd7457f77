import t from 'tap';
import OpenAI, { APIConnectionTimeoutError, AuthenticationError, InternalServerError, RateLimitError } from 'openai';
import { OpenAiPeer } from './fixtures/openai-peer.js';

// The peer must speak the protocol the real SDK parses: checked here through the SDK itself.
const peer = await OpenAiPeer.start();
t.teardown(() => peer.close());
const client = new OpenAI({ apiKey: 'sk-peer-test-0123456789abcdef', baseURL: peer.url, maxRetries: 0, timeout: 1500, logLevel: 'off' });
const base = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hola' }] };

t.beforeEach(() => peer.reset());

t.test('plain and streamed text', async (t) => {
  peer.reply({ text: 'Buenos días', usage: { prompt: 7, completion: 3 } }, { text: 'Hola de nuevo, Marta' });
  const plain = await client.chat.completions.create(base);
  t.equal(plain.choices[0]!.message.content, 'Buenos días');
  t.match(plain.usage, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 });
  const streamed = await client.chat.completions.stream({ ...base, stream_options: { include_usage: true } }).finalChatCompletion();
  t.equal(streamed.choices[0]!.message.content, 'Hola de nuevo, Marta');
  t.equal(peer.requests[1]!.body.stream, true);
});

t.test('tool calls, plain and streamed', async (t) => {
  const calls = { toolCalls: [{ name: 'buscar_contactos', arguments: { texto: 'Marta' } }] };
  peer.reply(calls, calls);
  const plain = await client.chat.completions.create(base);
  t.equal(plain.choices[0]!.finish_reason, 'tool_calls');
  t.match(plain.choices[0]!.message.tool_calls, [{ type: 'function', function: { name: 'buscar_contactos', arguments: '{"texto":"Marta"}' } }]);
  const streamed = await client.chat.completions.stream(base).finalChatCompletion();
  t.match(streamed.choices[0]!.message.tool_calls, [{ type: 'function', function: { name: 'buscar_contactos', arguments: '{"texto":"Marta"}' } }]);
});

t.test('errors and slowness as the SDK classifies them', async (t) => {
  peer.reply({ status: 401 }, { status: 429 }, { status: 500 }, { delayMs: 5000, then: { text: 'tarde' } });
  for (const kind of [AuthenticationError, RateLimitError, InternalServerError, APIConnectionTimeoutError]) {
    const error: unknown = await client.chat.completions.create(base).then(() => undefined, (e: unknown) => e);
    t.ok(error instanceof kind, kind.name);
  }
});
