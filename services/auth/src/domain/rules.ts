import { badRequest } from '@asistente/kit';

/** The spec's rules (section 5), after trimming, with its exact messages. */
export function personName(value: string, requiredMessage: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest(requiredMessage, 'VALIDATION_ERROR');
  if (trimmed.length < 2) throw badRequest('Mínimo 2 caracteres', 'VALIDATION_ERROR');
  return trimmed;
}

export function newPassword(value: string, tooShortMessage = 'Mínimo 6 caracteres'): string {
  if (!value) throw badRequest('La contraseña es requerida', 'VALIDATION_ERROR');
  if (value.length < 6) throw badRequest(tooShortMessage, 'VALIDATION_ERROR');
  return value;
}

export function optionalText(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

export function normalizeEmail(value: string): string {
  return value.trim();
}
