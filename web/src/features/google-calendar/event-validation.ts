import { fromLocalInput } from '../../lib/local-datetime';
import { isEmail, type FieldErrors } from '../../lib/validation';

export interface TimedForm {
  title: string;
  start: string;
  end: string;
}

/** Spec: title, start and end required; the server also refuses an end that is not after the start. */
export function validateTimed(form: TimedForm): FieldErrors<'title' | 'start' | 'end'> {
  const start = fromLocalInput(form.start);
  const end = fromLocalInput(form.end);
  return {
    title: form.title.trim() ? undefined : 'El título es requerido',
    start: start ? undefined : 'La fecha de inicio es requerida',
    end: !end ? 'La fecha de fin es requerida' : start && end <= start ? 'La fecha de fin debe ser posterior a la de inicio' : undefined,
  };
}

/** Spec: attendees are comma-separated emails, trimmed. */
export const splitAttendees = (text: string) =>
  text
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);

export const attendeesError = (text: string) => (splitAttendees(text).every(isEmail) ? undefined : 'Correo de invitado inválido');
