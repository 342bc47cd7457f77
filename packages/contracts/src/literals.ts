import { Type, type SchemaOptions, type TLiteral, type TUnion } from '@sinclair/typebox';

/** The schema of a list of names: the union of their literals, typed as if each literal were written out. */
export type LiteralUnion<T extends readonly string[]> = TUnion<{ -readonly [K in keyof T]: TLiteral<T[K] & string> }>;

/**
 * A list written once (`['google', 'msteams', 'caldav'] as const`) as its schema: each name a literal with
 * `each` (a Spanish message for a refused value), the union with `options`. Typed as the literals' tuple,
 * so a route reads the names themselves (a union typed from a mapped array reads as never in Fastify's
 * type provider).
 */
export function literalUnion<const T extends readonly [string, string, ...string[]]>(values: T, each?: SchemaOptions, options?: SchemaOptions): LiteralUnion<T> {
  return Type.Union(
    values.map((value) => Type.Literal(value, each)),
    options,
  ) as unknown as LiteralUnion<T>;
}

/** A list as a Spanish sentence names it: «google, msteams o caldav», «gmail u outlook» (u before an o sound). */
export function spokenList(values: readonly string[]): string {
  const last = values.at(-1) ?? '';
  if (values.length < 2) return last;
  return `${values.slice(0, -1).join(', ')} ${/^h?o/i.test(last) ? 'u' : 'o'} ${last}`;
}
