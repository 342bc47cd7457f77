const FIRST = ['José', 'María', 'Lucía', 'Javier', 'Carmen', 'Andrés', 'Elena', 'Raúl', 'Sofía', 'Miguel', 'Ana', 'Pablo'];
const LAST = ['García', 'Fernández', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Martín', 'Jiménez', 'Ruiz', 'Núñez'];
const COMPANIES = ['Acme Ibérica', 'Distribuciones Sur', 'Talleres Norte', 'Consultora Delta', 'Hostelería Sol', ''];
const TAGS = ['cliente', 'proveedor;vip', 'cliente;vip', '', 'prospecto'];

/** A term only every RARE-th row carries (in its company), for a selective search. */
export const RARE_TERM = 'zurbaran';
const RARE = 10_000;

export const CSV_HEADER = 'firstName,lastName,email,phone,company,tags\n';

/** Row `i` of a synthetic contact file: unique email, Spanish names with accents, some tags. */
export function csvRow(i) {
  const first = FIRST[i % FIRST.length];
  const last = LAST[(i * 7) % LAST.length];
  const company = i % RARE === 0 ? 'Zurbarán Estudio' : COMPANIES[i % COMPANIES.length];
  const phone = i % 3 === 0 ? '' : `+34 6${String(i).padStart(8, '0')}`;
  return `${first},${last},contacto${i}@empresa${i % 97}.es,${phone},${company},${TAGS[i % TAGS.length]}\n`;
}
