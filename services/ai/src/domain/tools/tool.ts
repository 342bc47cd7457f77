import type { PersonalTokenScope } from '@asistente/contracts';
import type { ServiceCaller, ServiceClient } from '@asistente/kit';
import type { ToolSpec } from '../language-model.js';
import type { CustomerBookingsRepository } from '../customer-bookings.repository.js';
import type { CustomerReach, Reach } from './reach.js';

/**
 * Who a tool acts for: every sibling call carries the caller's short-lived token, so it sees only the
 * workspace's data (and the member's own mail and calendars, with the member's role); `reach` says whether
 * the run speaks for the workspace (all of it) or for one customer (their own data only).
 */
export interface ToolContext {
  /** Whose data: the workspace. */
  workspaceId: string;
  /** Who the sibling calls act for: the member who asked, or the workspace itself (an automatic answer). */
  caller: ServiceCaller;
  services: Pick<ServiceClient, 'call'>;
  reach: Reach;
  /** The per-chat daily count of the meetings a customer run books. */
  bookings: Pick<CustomerBookingsRepository, 'reserve' | 'release'>;
  /**
   * What the caller's personal access token reaches (the MCP server); absent for the assistant's runs and a
   * session. A tool that reads across channels (a contact's timeline) keeps only the channels these cover.
   */
  scopes?: readonly PersonalTokenScope[];
  /**
   * What names this call among the caller's (MCP: the token and the JSON-RPC request id), repeated when a client
   * retries it; a tool that writes derives its idempotency key from it. Absent for the assistant's own runs.
   */
  callKey?: string;
}

export interface ToolOutcome {
  /** What the model reads (JSON), already trimmed to a sensible size. */
  result: unknown;
  /** One Spanish line for the owner: what the tool looked at and found. */
  summary: string;
}

export interface AssistantTool extends ToolSpec {
  run(context: ToolContext, args: Record<string, unknown>): Promise<ToolOutcome>;
}

/** The tools over one source, offered only when the source is configured and its service says it is usable. */
export interface ToolSource {
  name: string;
  isAvailable(context: ToolContext): Promise<boolean>;
  tools: AssistantTool[];
}

/** A string argument, trimmed and clipped; undefined when the model left it out or sent something else. */
export function text(args: Record<string, unknown>, key: string, max = 200): string | undefined {
  const value = args[key];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().slice(0, max);
  return trimmed === '' ? undefined : trimmed;
}

/** An integer argument within [min, max], or `fallback`. */
export function integer(args: Record<string, unknown>, key: string, min: number, max: number, fallback: number): number {
  const value = args[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** A date-time argument the model wrote (ISO 8601), or undefined. */
export function dateTime(args: Record<string, unknown>, key: string): string | undefined {
  const value = text(args, key, 40);
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** A page of a list: `pagina` (from 1) and `limite` within [1, max], `fallback` items by default. */
export function page(args: Record<string, unknown>, max: number, fallback: number): { page: number; limit: number } {
  return { page: integer(args, 'pagina', 1, 1_000_000, 1), limit: integer(args, 'limite', 1, max, fallback) };
}

/**
 * The "hay más" hint a model reads to ask for the next page: the page it would ask for, or undefined when this
 * one is the last. `total` is the sibling's count of the whole list.
 */
export function nextPage(total: number, { page, limit }: { page: number; limit: number }): number | undefined {
  return page * limit < total ? page + 1 : undefined;
}

/** "; hay más (página N)" for a summary line, or nothing on the last page. */
export function moreHint(next: number | undefined): string {
  return next === undefined ? '' : `; hay más (página ${next})`;
}

/** The paging properties of a list tool's parameters. */
export function pageProperties(max: number): Record<string, unknown> {
  return {
    pagina: { type: 'integer', minimum: 1, description: 'Página, desde 1' },
    limite: { type: 'integer', minimum: 1, maximum: max, description: `Cuántos por página (máximo ${max})` },
  };
}

/** The customer a bound tool answers for; the registry never offers those tools to an owner run. */
export function customerOf(context: ToolContext): CustomerReach {
  if (context.reach.kind !== 'customer') throw new Error('a customer tool ran outside a customer run');
  return context.reach;
}
