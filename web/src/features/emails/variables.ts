import { EMAIL_CONTACT_VARIABLES } from '@asistente/contracts';

/** `{palabra}` as the server reads a variable: letters (accents too), digits and `_`. */
const VARIABLE = /\{([\p{L}\p{N}_]+)\}/gu;
const KNOWN: ReadonlySet<string> = new Set(EMAIL_CONTACT_VARIABLES);

export const hasVariables = (...texts: string[]) => texts.some((text) => new RegExp(VARIABLE.source, 'u').test(text));

/** The variables no contact fills (`{producto}`), in the order they first appear: a send would leave them as written. */
export function unknownVariables(...texts: string[]): string[] {
  const unknown = new Set<string>();
  for (const text of texts) {
    for (const [whole, name] of text.matchAll(VARIABLE)) if (!KNOWN.has(name!)) unknown.add(whole);
  }
  return [...unknown];
}
