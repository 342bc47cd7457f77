import { Type, type TNull } from '@sinclair/typebox';

/**
 * Answers that are not a JSON body, declared so the API reference describes them: Fastify sends a
 * redirect without a body and a file or stream as it is (it never serializes a Buffer or a stream).
 */

/** A redirect (OAuth callbacks, tracked links): no body, the `Location` header says where. */
export const RedirectResponse = (description: string): TNull => Type.Null({ description });

/**
 * A file or a stream, per media type (the range of any type when it is the file's own), as bytes. Typed
 * `unknown`: the handler sends a Buffer or a stream, which no JSON type describes.
 */
export function FileResponse(mediaTypes: string[], description: string) {
  const bytes = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: bytes }])) };
}
