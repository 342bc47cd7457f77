import { AppError } from './errors.js';

/**
 * Characters no text field of the product may hold: NUL (PostgreSQL refuses it
 * in `text`, so it would surface as a 500) and the other C0/C1 controls,
 * except tab, line feed and carriage return which multi-line fields (notes,
 * messages) legitimately carry. Query strings and path params hold none at all.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_ANYWHERE = /[\u0000-\u001F\u007F-\u009F]/;
/** A lone surrogate cannot be encoded as UTF-8: PostgreSQL would refuse it too. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const CONTROL_CHARACTER_MESSAGE = 'El texto contiene caracteres no permitidos (caracteres de control)';
export const NON_FINITE_MESSAGE = 'Los números deben ser finitos';

export type InputPart = 'body' | 'querystring' | 'params';

/**
 * The first problem in a parsed request part, walking it iteratively (a
 * deeply nested body must not overflow the stack): a string or key with a
 * forbidden character, or a number that is not finite (`1e999`, `Infinity`
 * coerced from a query string). Undefined when the input is clean.
 */
export function findInputProblem(value: unknown, part: InputPart): AppError | undefined {
  const forbidden = part === 'body' ? CONTROL_IN_TEXT : CONTROL_ANYWHERE;
  const badText = (text: string) => forbidden.test(text) || LONE_SURROGATE.test(text);
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (badText(current)) return new AppError(400, 'INVALID_CHARACTERS', CONTROL_CHARACTER_MESSAGE);
    } else if (typeof current === 'number') {
      if (!Number.isFinite(current)) return new AppError(400, 'VALIDATION_ERROR', NON_FINITE_MESSAGE);
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current) && !isStream(current)) {
      for (const [key, item] of Object.entries(current)) {
        if (badText(key)) return new AppError(400, 'INVALID_CHARACTERS', CONTROL_CHARACTER_MESSAGE);
        stack.push(item);
      }
    }
  }
  return undefined;
}

function isStream(value: object): boolean {
  return typeof (value as { pipe?: unknown }).pipe === 'function';
}
