/**
 * Limits the server enforces (packages/contracts schemas), for forms to check before sending, with the
 * same sentence the server answers. Keep each in step with its schema.
 */
export const LIMITS = {
  /** ContactBody.tags items: `Type.String({ maxLength: 50 })`. */
  tag: { maxLength: 50, message: 'Cada etiqueta admite como máximo 50 caracteres' },
  /** ContactBody.tags: `maxItems: 50`. */
  tags: { maxItems: 50, message: 'Máximo 50 etiquetas' },
} as const;

/** The limit's message when `value` (trimmed) is longer than allowed, else undefined. */
export function tooLong(value: string, limit: { maxLength: number; message: string }): string | undefined {
  return value.trim().length > limit.maxLength ? limit.message : undefined;
}
