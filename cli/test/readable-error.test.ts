import t from 'tap';
import { DataDirInUseError } from '@asistente/kit';
import { CliError, readableError } from '../src/lib/errors.js';

t.test("the kit's data-directory-in-use error reaches the operator in Spanish, with what to do", async (t) => {
  const shown = readableError(new DataDirInUseError('/srv/asistente/data', { pid: 4242, url: 'postgres://127.0.0.1:5555/postgres' }));
  t.ok(shown instanceof CliError, 'a failure the CLI prints as its message alone (exit code 1)');
  t.equal((shown as CliError).message, 'La carpeta de datos /srv/asistente/data está en uso por el servidor (proceso 4242): páralo y vuelve a ejecutar el comando');
  const other = new Error('otra cosa');
  t.equal(readableError(other), other, 'any other error is left as it is');
});
