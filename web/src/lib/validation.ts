import { fromLocalInput } from './local-datetime';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** A person's first or last name, as every form that creates an account asks it. */
export function personNameError(value: string, requiredMessage: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return requiredMessage;
  return trimmed.length < 2 ? 'Mínimo 2 caracteres' : undefined;
}

/** A password being chosen (sign-up, reset, invitation); the server adds the rest (no common passwords, no control characters). */
export function newPasswordError(password: string): string | undefined {
  return !password ? 'La contraseña es requerida' : password.length < 6 ? 'Mínimo 6 caracteres' : undefined;
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export function hasErrors<K extends string>(errors: FieldErrors<K>): boolean {
  return Object.values(errors).some(Boolean);
}

/** What every form of a timed event checks: a title, a start, and an end after the start (datetime-local values). */
export function timedEventErrors(form: { title: string; start: string; end: string }): FieldErrors<'title' | 'start' | 'end'> {
  const start = fromLocalInput(form.start);
  const end = fromLocalInput(form.end);
  return {
    title: form.title.trim() ? undefined : 'El título es requerido',
    start: start ? undefined : 'La fecha de inicio es requerida',
    end: !end ? 'La fecha de fin es requerida' : start && end <= start ? 'La fecha de fin debe ser posterior a la de inicio' : undefined,
  };
}
