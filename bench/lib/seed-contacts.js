// Seeds a user's contacts in one SQL statement (generate_series), so a
// million rows take seconds, not the minutes of an import through the API.
// The rows have the shape of bench/lib/csv.js's csvRow, plus some gmail
// addresses, so the same search terms mean the same thing in every bench.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import postgres from 'postgres';
import { startApp } from './app.js';

/** The insert of `rows` contacts for `userId`, newest = highest i. */
export function seedContactsSql(userId, rows) {
  return `
    insert into contacts.contacts (user_id, first_name, last_name, email, phone, company, tags, phone_e164, created_at)
    select '${userId}'::uuid,
      (array['José','María','Lucía','Javier','Carmen','Andrés','Elena','Raúl','Sofía','Miguel','Ana','Pablo'])[i % 12 + 1],
      (array['García','Fernández','López','Martínez','Sánchez','Pérez','Gómez','Martín','Jiménez','Ruiz','Núñez'])[(i * 7) % 11 + 1],
      'contacto' || i || case when i % 4 = 0 then '@gmail.com' else '@empresa' || (i % 97) || '.es' end,
      case when i % 3 = 0 then null else '+34 6' || lpad(i::text, 8, '0') end,
      case when i % 10000 = 0 then 'Zurbarán Estudio'
        else nullif((array['Acme Ibérica','Distribuciones Sur','Talleres Norte','Consultora Delta','Hostelería Sol',''])[i % 6 + 1], '') end,
      (case i % 5 when 0 then '{cliente}' when 1 then '{proveedor,vip}' when 2 then '{cliente,vip}' when 3 then '{}' else '{prospecto}' end)::text[],
      case when i % 3 = 0 then null else '+346' || lpad(i::text, 8, '0') end,
      timestamptz '2026-01-01' + i * interval '1 second'
    from generate_series(1, ${Number(rows)}) i`;
}

/**
 * Seeds `rows` contacts for `userId` through `run` (a function running one SQL
 * text): the secondary indexes are dropped and built again after the insert,
 * which is several times faster than maintaining them row by row, then the
 * planner gets fresh statistics, as after a large import.
 */
export async function seedContacts(run, userId, rows) {
  const indexes = await run(`select indexname, indexdef from pg_indexes
    where schemaname = 'contacts' and tablename = 'contacts' and indexname <> 'contacts_pkey'`);
  for (const { indexname } of indexes) await run(`drop index contacts.${indexname}`);
  await run(seedContactsSql(userId, rows));
  await run(`set maintenance_work_mem = '128MB'`);
  for (const { indexdef } of indexes) await run(indexdef);
  await run('analyze contacts.contacts');
}

/** The user id (`sub`) inside a bearer header's token. */
export function userIdOf(authorization) {
  const payload = authorization.split(' ')[1].split('.')[1];
  return JSON.parse(Buffer.from(payload, 'base64url').toString()).sub;
}

/**
 * Gives the user of `authorization` `rows` contacts in `app` and returns the
 * app to measure. Distributed: straight into its database. Embedded: PGlite
 * serves one process, so the app is stopped, its data directory opened here,
 * and the app started again on it. `moreSql`: statements run after the contacts, the same way (the
 * account's other data, one SQL text each).
 */
export async function seedUserContacts(app, { distributed, databaseUrl }, authorization, rows, moreSql = []) {
  const userId = userIdOf(authorization);
  if (distributed) {
    const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    try {
      await seedContacts((text) => sql.unsafe(text), userId, rows);
      for (const text of moreSql) await sql.unsafe(text);
    } finally {
      await sql.end();
    }
    return app;
  }
  await app.stop({ keepData: true });
  const db = await PGlite.create({ dataDir: app.pgDir, extensions: { pg_trgm, unaccent } });
  try {
    await seedContacts(async (text) => (await db.query(text)).rows, userId, rows);
    for (const text of moreSql) await db.exec(text);
  } finally {
    await db.close();
  }
  return startApp({ again: app.restart });
}
