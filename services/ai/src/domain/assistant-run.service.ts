import { randomUUID } from 'node:crypto';
import { type AiRunResult, type AiSuggestionBody, type AiToolCall, Contact, contactsRoutes } from '@asistente/contracts';
import {
  AppError,
  badRequest,
  conflict,
  createEvent,
  notFound,
  ServiceAnswerError,
  ServiceCallError,
  workspaceOf,
  type Outbox,
  type ServiceCaller,
  type ServiceClient,
  type Sql,
} from '@asistente/kit';
import { LanguageModelError, type ChatMessage, type LanguageModel, type ModelFailure } from './language-model.js';
import type { FullAssistantConfig } from './assistant-config.js';
import type { AssistantConfigService } from './assistant-config.service.js';
import type { CustomerBookingsRepository } from './customer-bookings.repository.js';
import { customerReach, type CustomerChat } from './customer-reach.js';
import { costUsd } from './pricing.js';
import { customerMessage, HANDOFF_TOOL, systemMessage } from './prompt.js';
import type { ProviderKeysService } from './provider-keys.service.js';
import type { RunsRepository } from './runs.repository.js';
import { suggestionMessage } from './suggestion-prompt.js';
import { suggestionReach } from './suggestion-reach.js';
import { OWNER_REACH, type Reach } from './tools/reach.js';
import { offeredTools, UsableSources } from './tools/registry.js';
import type { AssistantTool, ToolContext } from './tools/tool.js';
import { handleOfJid } from './whatsapp-handles.js';

/** The body's dryRun needs nothing here: a run through the API never sends and never counts as a chat's answer. */
export interface RunRequest {
  message: string;
  contactId?: string | undefined;
  jid?: string | undefined;
}

/** An automatic answer to a customer: their burst, answered on their behalf. */
export interface ChatRunRequest {
  chat: CustomerChat;
  customerLines: string[];
}

export interface RunOutcome extends AiRunResult {
  /** The model asked to pass the chat to a person (automatic answers only). */
  handoff: boolean;
}

/** Rounds of tool calls before the model must answer with what it has. */
const MAX_TOOL_ROUNDS = 4;
const MAX_TOOL_CALLS = 8;
/** What one tool result may add to the prompt. */
const MAX_TOOL_RESULT_CHARS = 6000;

const FAILURES: Record<ModelFailure, AppError> = {
  auth: new AppError(409, 'OPENAI_KEY_INVALID', 'OpenAI rechazó tu API key. Revísala o guarda una nueva en la página de OpenAI'),
  quota: new AppError(409, 'OPENAI_QUOTA', 'Tu cuenta de OpenAI no tiene saldo disponible. Revisa la facturación en OpenAI'),
  rate_limited: new AppError(503, 'OPENAI_RATE_LIMITED', 'OpenAI está limitando las peticiones de tu cuenta. Espera un momento y vuelve a intentarlo'),
  unavailable: new AppError(502, 'OPENAI_UNAVAILABLE', 'OpenAI no está disponible en este momento. Inténtalo de nuevo en unos minutos'),
  timeout: new AppError(504, 'OPENAI_TIMEOUT', 'OpenAI tardó demasiado en responder. Inténtalo de nuevo'),
  rejected: new AppError(502, 'OPENAI_REJECTED', 'OpenAI no pudo procesar la petición. Revisa el modelo y la configuración del asistente'),
};

export const NO_KEY_MESSAGE = 'Configura tu API key de OpenAI';
export const NO_SUGGESTION_MESSAGE = 'El asistente no propuso ninguna respuesta. Inténtalo de nuevo';

/**
 * One run of the assistant: the user's key opened in memory, the configuration turned into a system
 * message, the usable sources offered as tools, tool calls answered through the owning services with the
 * user's own token, and the cost recorded with an `ai.run.completed` event in one transaction.
 */
export class AssistantRunService {
  /** Sources seen usable lately, per user: a run does not ask every sibling again each time. */
  private readonly usable = new UsableSources();

  constructor(
    private readonly deps: {
      sql: Sql;
      outbox: Outbox;
      keys: ProviderKeysService;
      assistant: AssistantConfigService;
      runs: RunsRepository;
      bookings: CustomerBookingsRepository;
      services: Pick<ServiceClient, 'call'>;
      model: LanguageModel;
      now?: () => Date;
    },
  ) {}

  /**
   * POST /ai/run. Without a jid, a member's own question (optionally about a contact): the workspace's reach,
   * with the member's own mail and calendars. With a jid, the message is a customer's in that chat: the run
   * acts for that customer only.
   */
  async run(caller: ServiceCaller, request: RunRequest): Promise<RunOutcome> {
    const userId = workspaceOf(caller);
    const config = await this.deps.assistant.get(userId);
    const named = request.contactId ? await this.contactById(caller, request.contactId) : undefined;
    const reach = request.jid ? await this.reachOfJid(caller, request.jid) : OWNER_REACH;
    const context: ToolContext = { workspaceId: userId, caller, services: this.deps.services, reach, bookings: this.deps.bookings };
    return this.execute(userId, config, context, {
      trigger: 'manual',
      // A customer's run is named after the chat's own contact, never one the request points at.
      customerName: reach.kind === 'customer' ? reach.contact?.firstName : named?.firstName,
      userText: reach.kind === 'customer' ? customerMessage([request.message]) : request.message,
      customerChat: false,
      booking: false,
      countsAsReply: false,
    });
  }

  /** An automatic answer to a customer (the consumer checked the rails before): the workspace acts on its own. */
  async answerChat(userId: string, config: FullAssistantConfig, request: ChatRunRequest): Promise<RunOutcome> {
    const reach = await customerReach(this.deps.services, userId, request.chat);
    const context: ToolContext = { workspaceId: userId, caller: userId, services: this.deps.services, reach, bookings: this.deps.bookings };
    return this.execute(userId, config, context, {
      trigger: 'whatsapp',
      customerName: reach.contact?.firstName,
      userText: customerMessage(request.customerLines),
      customerChat: true,
      booking: config.canBookMeetings,
      countsAsReply: true,
    });
  }

  /**
   * A suggested answer for a conversation of the team inbox: a draft a member edits before sending, so it never
   * sends, books or hands off anything, and neither needs the automatic answers on nor counts as a chat's answer.
   * Its tools are the customer's own, bound in code as an automatic answer's; its cost is recorded like any run.
   */
  async suggest(workspaceId: string, request: AiSuggestionBody): Promise<RunOutcome> {
    const config = await this.deps.assistant.get(workspaceId);
    const reach = await suggestionReach(this.deps.services, workspaceId, request);
    const context: ToolContext = { workspaceId, caller: workspaceId, services: this.deps.services, reach, bookings: this.deps.bookings };
    const outcome = await this.execute(workspaceId, config, context, {
      trigger: 'manual',
      customerName: reach.contact?.firstName,
      userText: suggestionMessage(request.lines, request.instruction),
      customerChat: false,
      booking: false,
      countsAsReply: false,
    });
    if (outcome.answer === '') throw new AppError(502, 'SUGGESTION_EMPTY', NO_SUGGESTION_MESSAGE);
    return outcome;
  }

  private async execute(
    userId: string,
    config: FullAssistantConfig,
    context: ToolContext,
    run: {
      trigger: 'manual' | 'whatsapp';
      customerName: string | undefined;
      userText: string;
      customerChat: boolean;
      booking: boolean;
      countsAsReply: boolean;
    },
  ): Promise<RunOutcome> {
    // The key and the sources are independent: asked at once, the run waits for the slower only.
    const [key, tools] = await Promise.all([
      this.deps.keys.open(userId),
      offeredTools(config.internalSources, context, { booking: run.booking }, this.usable),
    ]);
    if (!key) throw conflict(NO_KEY_MESSAGE, 'OPENAI_KEY_MISSING');
    const now = this.deps.now?.() ?? new Date();
    const messages: ChatMessage[] = [
      { role: 'system', content: systemMessage(config, { customerName: run.customerName, now, customerChat: run.customerChat, canBook: run.booking && tools.some((t) => t.name === 'agendar_reunion') }) },
      { role: 'user', content: run.userText },
    ];
    const specs = run.customerChat ? [...tools, HANDOFF_SPEC] : tools;
    const usage = { promptTokens: 0, completionTokens: 0 };
    const toolCalls: AiToolCall[] = [];
    let answer = '';
    let handoff = false;

    try {
      for (let round = 0; ; round++) {
        const offer = round < MAX_TOOL_ROUNDS && toolCalls.length < MAX_TOOL_CALLS ? specs : [];
        const completion = await this.deps.model.complete({
          apiKey: key.apiKey,
          model: config.model,
          messages,
          tools: offer.map(({ name, description, parameters }) => ({ name, description, parameters })),
          temperature: config.temperature,
          maxTokens: config.maxTokens,
        });
        usage.promptTokens += completion.usage.promptTokens;
        usage.completionTokens += completion.usage.completionTokens;
        const calls = offer.length > 0 ? completion.toolCalls : [];
        if (calls.length === 0) {
          answer = completion.content?.trim() ?? '';
          break;
        }
        if (calls.some((call) => call.name === HANDOFF_TOOL)) {
          handoff = true;
          toolCalls.push({ name: HANDOFF_TOOL, arguments: {}, summary: 'El cliente pidió hablar con una persona' });
          break;
        }
        messages.push({ role: 'assistant', content: completion.content, toolCalls: calls });
        // The calls of one round are independent reads (the model asked for them together): run at once.
        const outcomes = await Promise.all(
          calls.map(async (call) => {
            const args = parseArguments(call.arguments);
            return { call, args, outcome: await runTool(tools, call.name, context, args) };
          }),
        );
        for (const { call, args, outcome } of outcomes) {
          toolCalls.push({ name: call.name, arguments: args, summary: outcome.summary });
          messages.push({ role: 'tool', toolCallId: call.id, content: clip(JSON.stringify(outcome.result)) });
        }
      }
    } catch (error) {
      if (!(error instanceof LanguageModelError)) throw error;
      if (error.kind === 'auth') await this.deps.keys.markValidity(userId, key, false);
      throw FAILURES[error.kind];
    }
    if (key.knownInvalid) await this.deps.keys.markValidity(userId, key, true);

    const cost = costUsd(config.model, usage);
    const totalTokens = usage.promptTokens + usage.completionTokens;
    await this.deps.sql.begin(async (tx) => {
      await this.deps.runs.insert(tx, {
        id: randomUUID(),
        userId,
        trigger: run.trigger,
        chatId: context.reach.kind === 'customer' ? context.reach.chatKey : null,
        model: config.model,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        costUsd: cost,
        replied: run.countsAsReply && !handoff && answer !== '',
      });
      await this.deps.outbox.append(tx, [
        createEvent('ai.run.completed', userId, { model: config.model, ...usage, totalTokens, costUsd: cost, trigger: run.trigger }),
      ]);
    });
    return { answer, model: config.model, usage: { ...usage, totalTokens }, costUsd: cost, toolCalls, handoff };
  }

  /** A run "as the customer of this WhatsApp chat": the WhatsApp service names the chat's handle, the rest follows from it. */
  private async reachOfJid(caller: ServiceCaller, jid: string): Promise<Reach> {
    const handle = await handleOfJid(this.deps.services, caller, jid);
    if (!handle) throw badRequest('Identificador de chat de WhatsApp inválido');
    return customerReach(this.deps.services, caller, { channel: 'whatsapp', handle });
  }

  /** The contact the member's question is about: 404 when it is not this workspace's. */
  private async contactById(caller: ServiceCaller, contactId: string): Promise<Contact | undefined> {
    try {
      return await this.deps.services.call(contactsRoutes.get, caller, { params: { id: contactId } });
    } catch (error) {
      if (error instanceof ServiceCallError && error.statusCode === 404) throw notFound('Contacto no encontrado');
      return undefined;
    }
  }
}

const HANDOFF_SPEC = {
  name: HANDOFF_TOOL,
  description: 'Pasa la conversación a una persona del equipo cuando el cliente lo pide.',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

/** A sibling that fails or refuses becomes a result the model can read, not a failed run. */
async function runTool(tools: AssistantTool[], name: string, context: ToolContext, args: Record<string, unknown>) {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) return { result: { error: `La herramienta ${name} no está disponible` }, summary: `Pidió una herramienta no disponible (${name})` };
  try {
    return await tool.run(context, args);
  } catch (error) {
    const status = error instanceof ServiceCallError ? error.statusCode : undefined;
    const reason = status === 404 ? 'No encontrado' : error instanceof ServiceAnswerError ? 'La fuente de datos respondió algo inesperado' : 'La fuente de datos no respondió';
    return { result: { error: reason }, summary: `${name}: ${reason.toLowerCase()}` };
  }
}

function parseArguments(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function clip(text: string): string {
  return text.length <= MAX_TOOL_RESULT_CHARS ? text : `${text.slice(0, MAX_TOOL_RESULT_CHARS)}…(recortado)`;
}
