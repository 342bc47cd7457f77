import { EMAIL_PATTERN } from '@asistente/contracts';
import { findInputProblem, type TextRow } from '@asistente/kit';
import { normalizeTags } from './contact.js';
import { phoneE164 } from './phone.js';
import { restoreFormula, splitTags } from './csv-format.js';
import type { CsvRecord } from './csv-record.js';

const EMAIL = new RegExp(EMAIL_PATTERN);
const LIMITS = { firstName: 100, lastName: 100, email: 254, phone: 40, company: 120 } as const;
const LABELS = { firstName: 'nombre', lastName: 'apellido', email: 'correo', phone: 'teléfono', company: 'empresa' } as const;
/** Separates tags inside one staging cell; cannot appear in a tag typed by a person. */
export const TAG_SEPARATOR = '\u001f';

/** Said of a line whose text no field may hold (NUL, control characters): the form refuses the same. */
const INVALID_CHARACTERS = 'Contiene caracteres no válidos (caracteres de control)';

export type ImportRowResult = { ok: true; row: TextRow } | { ok: false; message: string };

/**
 * One CSV record -> the row to merge (line, firstName, lastName, email, phone,
 * company, tags, phone in E.164), or the Spanish reason the line is refused. The same rules
 * as the contact form, so an import cannot store what the UI would refuse.
 */
export function importRow(record: CsvRecord, delimiter: ',' | ';'): ImportRowResult {
  const v = record.values;
  // The form's own check; PostgreSQL would refuse a NUL, and a unit separator would split the tags' staging cell.
  if (findInputProblem(v, 'body')) return { ok: false, message: INVALID_CHARACTERS };
  const text = (key: keyof typeof LIMITS) => restoreFormula(v[key]?.trim() ?? '');
  const firstName = text('firstName');
  const lastName = text('lastName');
  const email = text('email');
  if (!firstName) return { ok: false, message: 'Falta el nombre' };
  if (!lastName) return { ok: false, message: 'Falta el apellido' };
  if (email && !EMAIL.test(email)) return { ok: false, message: `Correo inválido: "${email.slice(0, 80)}"` };
  for (const key of Object.keys(LIMITS) as (keyof typeof LIMITS)[]) {
    if (text(key).length > LIMITS[key]) {
      return { ok: false, message: `El ${LABELS[key]} supera los ${LIMITS[key]} caracteres` };
    }
  }
  const tags = normalizeTags(splitTags(restoreFormula(v.tags ?? ''), delimiter));
  if (tags.length > 50 || tags.some((t) => t.length > 50)) {
    return { ok: false, message: 'Demasiadas etiquetas o etiqueta de más de 50 caracteres' };
  }
  return {
    ok: true,
    row: [
      String(record.line),
      firstName,
      lastName,
      email || null,
      text('phone') || null,
      text('company') || null,
      tags.join(TAG_SEPARATOR),
      phoneE164(text('phone')),
    ],
  };
}
