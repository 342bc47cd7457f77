import t from 'tap';
import { createTestPlatform } from '@asistente/kit/testing';
import { MessagesRepository } from '../src/domain/messages.repository.js';

/**
 * `GET /emails?address=` lists the mail from or to exactly one address: what the assistant answering a
 * customer reads. A substring would hand Mariana's mail to Ana (ana@ is the tail of mariana@).
 */
const platform = await createTestPlatform(t);
const sql = platform.db.sql;
const messages = new MessagesRepository(sql);
const userId = '00000000-0000-4000-8000-0000000000a1';

const [account] = await sql<{ id: string }[]>`
  insert into email.accounts (user_id, provider, email, imap_host, imap_port, imap_secure, imap_user, smtp_host, smtp_port, smtp_secure, smtp_user, credentials_enc)
  values (${userId}, 'imap', 'yo@negocio.example', 'imap.example', 993, true, 'yo', 'smtp.example', 465, true, 'yo', 'v1:test')
  returning id`;
let uid = 0;
async function mail(folder: 'inbox' | 'sent', from: string, to: string, subject: string) {
  await sql`insert into email.messages (user_id, account_id, folder, uid, from_addr, to_addrs, subject, sent_at)
    values (${userId}, ${account!.id}, ${folder}, ${++uid}, ${from}, ${to}, ${subject}, now())`;
}
await mail('inbox', 'Ana García <ana@clientes.example>', 'yo@negocio.example', 'De Ana');
await mail('inbox', 'Mariana <mariana@clientes.example>', 'yo@negocio.example', 'De Mariana');
await mail('inbox', 'ana@clientes.example.evil', 'yo@negocio.example', 'Dominio parecido');
await mail('sent', 'yo@negocio.example', 'bruno@clientes.example, ANA@clientes.example', 'A Bruno y Ana');
await mail('sent', 'yo@negocio.example', 'mariana@clientes.example', 'A Mariana');

const subjects = async (folder: 'inbox' | 'sent', address: string) =>
  (await messages.page(userId, { folder, address, limit: 20, offset: 0 })).rows.map((r) => r.subject).sort();

t.test('exactly the address, in from or to, any case', async (t) => {
  t.same(await subjects('inbox', 'ana@clientes.example'), ['De Ana']);
  t.same(await subjects('sent', 'ana@clientes.example'), ['A Bruno y Ana']);
  t.same(await subjects('inbox', 'mariana@clientes.example'), ['De Mariana']);
  const page = await messages.page(userId, { folder: 'inbox', address: 'ana@clientes.example', limit: 20, offset: 0 });
  t.equal(page.total, 1, 'the total counts the filtered mail');
});

t.test('wildcards and regex characters are literal', async (t) => {
  t.same(await subjects('inbox', '%@clientes.example'), []);
  t.same(await subjects('inbox', '.*@clientes.example'), []);
  t.same(await subjects('inbox', 'ana@clientes_example'), []);
});
