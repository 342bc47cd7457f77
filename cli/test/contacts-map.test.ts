import t from 'tap';
import { collectMapping } from '../src/commands/contacts.js';
import { CliError } from '../src/lib/errors.js';

t.test('--map collects header=field pairs, "header=" ignores a column', async (t) => {
  let mapping = collectMapping('Given Name=firstName', {});
  mapping = collectMapping('E-mail 1 - Value = email', mapping);
  mapping = collectMapping('Notas=', mapping);
  mapping = collectMapping('a=b=phone', mapping);
  t.same(mapping, { 'Given Name': 'firstName', 'E-mail 1 - Value': 'email', Notas: '', 'a=b': 'phone' });
});

t.test('--map refuses an unknown field or a missing header, in Spanish, before anything is sent', async (t) => {
  for (const bad of ['Given Name=nombrecito', '=email', 'sin-igual']) {
    t.throws(() => collectMapping(bad, {}), CliError, bad);
    t.throws(() => collectMapping(bad, {}), { message: /--map espera "cabecera=campo"/ });
  }
});
