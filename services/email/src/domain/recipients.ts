import { EMAIL_PATTERN } from '@asistente/contracts';
import { badRequest } from '@asistente/kit';

const EMAIL = new RegExp(EMAIL_PATTERN);
const ANGLE = /<([^<>]+)>\s*$/;

/** The bare address of `Nombre <correo@x>` or `correo@x`. */
export function bareAddress(entry: string): string {
  const trimmed = entry.trim();
  return (ANGLE.exec(trimmed)?.[1] ?? trimmed).trim();
}

/**
 * Recipients typed as a list (commas or semicolons). Every one must be an address; a bad one answers 400
 * naming it, and nothing is sent.
 */
export function parseRecipients(list: string | undefined, required: boolean): string[] {
  const entries = (list ?? '').split(/[,;]/).map((e) => e.trim()).filter(Boolean);
  if (required && entries.length === 0) throw badRequest('El destinatario es requerido', 'VALIDATION_ERROR');
  for (const entry of entries) {
    if (!EMAIL.test(bareAddress(entry))) throw badRequest(`Correo inválido: ${entry}`, 'VALIDATION_ERROR');
  }
  return entries;
}

/** Addresses found in a stored header value (`Ana <ana@x>, bob@y`). */
export function addressesIn(header: string): string[] {
  return header.split(',').map(bareAddress).filter((a) => EMAIL.test(a));
}
