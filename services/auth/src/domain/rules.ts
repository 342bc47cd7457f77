import { badRequest } from '@asistente/kit';
import { isCommonPassword } from './common-passwords.js';

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;

/** The spec's rules (section 5), after trimming, with its exact messages. */
export function personName(value: string, requiredMessage: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(requiredMessage, 'VALIDATION_ERROR');
  if (trimmed.length < 2) throw badRequest('Mínimo 2 caracteres', 'VALIDATION_ERROR');
  return trimmed;
}

/** The spec's minimum only: what a login checks (older accounts may predate the rules below). */
export function passwordLength(value: string, tooShortMessage = 'Mínimo 6 caracteres'): string {
  if (!value) throw badRequest('La contraseña es requerida', 'VALIDATION_ERROR');
  if (value.length < 6) throw badRequest(tooShortMessage, 'VALIDATION_ERROR');
  return value;
}

/** A password being set (register, change): the minimum, no blank or control characters, not a common one. */
export function newPassword(value: string, tooShortMessage = 'Mínimo 6 caracteres'): string {
  passwordLength(value, tooShortMessage);
  if (!value.trim()) throw badRequest('La contraseña no puede estar formada solo por espacios', 'VALIDATION_ERROR');
  if (CONTROL_CHARACTERS.test(value)) {
    throw badRequest('La contraseña no puede contener caracteres de control', 'VALIDATION_ERROR');
  }
  if (isCommonPassword(value)) {
    throw badRequest('Esa contraseña es demasiado común y fácil de adivinar. Elige otra', 'VALIDATION_ERROR');
  }
  return value;
}

export function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export function normalizeEmail(value: string): string {
  return value.trim();
}
