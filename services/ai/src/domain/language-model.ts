// The port the assistant talks to a chat model through; adapters/openai.ts implements it with the OpenAI SDK.

/** A function the model may call, described by a JSON Schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it (not trusted: parsed and checked by the tool). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ModelToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface CompletionRequest {
  apiKey: string;
  model: string;
  messages: ChatMessage[];
  tools: ToolSpec[];
  temperature: number;
  maxTokens: number;
}

export interface Completion {
  content: string | null;
  toolCalls: ModelToolCall[];
  usage: { promptTokens: number; completionTokens: number };
}

/**
 * What went wrong, in the terms the owner can act on: the key was rejected, the account has no credit, the
 * provider limited or failed us (after the retries), it took too long, or it refused the request itself.
 */
export type ModelFailure = 'auth' | 'quota' | 'rate_limited' | 'unavailable' | 'timeout' | 'rejected';

/** Carries only the kind and status: never the provider's message, which may quote the key. */
export class LanguageModelError extends Error {
  constructor(
    readonly kind: ModelFailure,
    readonly status: number | undefined,
  ) {
    super(`language model call failed: ${kind}${status ? ` (${status})` : ''}`);
    this.name = 'LanguageModelError';
  }
}

/** A chat model that can answer or ask for function calls. */
export interface LanguageModel {
  complete(request: CompletionRequest): Promise<Completion>;
}
