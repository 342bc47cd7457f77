import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import {
  LanguageModelError,
  type ChatMessage,
  type Completion,
  type CompletionRequest,
  type LanguageModel,
  type ModelToolCall,
  type ToolSpec,
} from '../domain/language-model.js';

export interface OpenAiOptions {
  /** OpenAI-compatible API root; undefined lets the SDK read OPENAI_BASE_URL or use api.openai.com. */
  baseURL?: string | undefined;
  /** Per attempt. */
  timeoutMs: number;
  /** The SDK retries 408/409/429/5xx and connection errors with exponential backoff, honouring Retry-After. */
  maxRetries: number;
}

export const OPENAI_DEFAULTS: OpenAiOptions = { timeoutMs: 30_000, maxRetries: 2 };

type OpenAiSdk = typeof import('openai');

/** The SDK is loaded by the first completion, not with the service: an install without an assistant never needs it. */
const loadSdk = (): Promise<OpenAiSdk> => import('openai');

/** The OpenAI SDK behind the LanguageModel interface: one client per call, since each user brings their own key. */
export class OpenAiLanguageModel implements LanguageModel {
  constructor(private readonly options: OpenAiOptions) {}

  async complete(request: CompletionRequest): Promise<Completion> {
    const sdk = await loadSdk();
    const client = new sdk.default({
      apiKey: request.apiKey,
      baseURL: this.options.baseURL,
      timeout: this.options.timeoutMs,
      maxRetries: this.options.maxRetries,
      // The SDK's own logging is off: its lines bypass our logger and its redaction.
      logLevel: 'off',
    });
    try {
      const completion = await client.chat.completions.create({
        model: request.model,
        messages: request.messages.map(toOpenAiMessage),
        ...(request.tools.length > 0 ? { tools: request.tools.map(toOpenAiTool) } : {}),
        temperature: request.temperature,
        max_completion_tokens: request.maxTokens,
      });
      const message = completion.choices[0]?.message;
      const toolCalls: ModelToolCall[] = [];
      for (const call of message?.tool_calls ?? []) {
        if (call.type === 'function') toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments });
      }
      return {
        content: message?.content ?? null,
        toolCalls,
        usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
      };
    } catch (error) {
      throw classify(error, sdk);
    }
  }
}

function classify(error: unknown, sdk: OpenAiSdk): LanguageModelError {
  const { APIConnectionError, APIConnectionTimeoutError, APIError, AuthenticationError, PermissionDeniedError, RateLimitError } = sdk;
  if (error instanceof APIConnectionTimeoutError) return new LanguageModelError('timeout', undefined);
  if (error instanceof APIConnectionError) return new LanguageModelError('unavailable', undefined);
  if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return new LanguageModelError('auth', error.status);
  if (error instanceof RateLimitError) {
    return new LanguageModelError(error.code === 'insufficient_quota' ? 'quota' : 'rate_limited', 429);
  }
  if (error instanceof APIError) {
    const status = error.status;
    if (status === 408) return new LanguageModelError('timeout', status);
    return new LanguageModelError(status !== undefined && status >= 500 ? 'unavailable' : 'rejected', status);
  }
  return new LanguageModelError('unavailable', undefined);
}

function toOpenAiMessage(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.arguments },
              })),
            }
          : {}),
      };
    default:
      return { role: message.role, content: message.content };
  }
}

function toOpenAiTool(tool: ToolSpec): ChatCompletionTool {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}
