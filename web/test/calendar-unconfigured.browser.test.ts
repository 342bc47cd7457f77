import t from 'tap';
import { browserSuite, launchBrowser, registerUser, signedInContext, startApp } from './fixtures/harness.js';

browserSuite(t, () => {
  t.test('a server without the Google client says so, asks the owner to ask the administrator, and folds the setting names for them', async (t) => {
    const bare = await startApp();
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    t.teardown(() => bare.stop());
    const owner = await registerUser(bare);
    const bareContext = await signedInContext(browser, bare, owner);
    t.teardown(() => bareContext.close());
    const barePage = await bareContext.newPage();
    await barePage.goto('/google-calendar');
    const note = barePage.getByRole('alert').filter({ hasText: 'Google Calendar no está configurado en este servidor. Pide al administrador que configure la conexión con Google Calendar.' });
    await note.waitFor();
    t.notOk(await note.getByText('GOOGLE_CLIENT_ID').isVisible(), 'the setting names are folded away from the owner');
    await note.getByText('Para el administrador').click();
    await note.getByText('GOOGLE_CLIENT_ID').waitFor();
    await note.getByText('GOOGLE_CLIENT_SECRET').waitFor();
    t.ok(await barePage.getByRole('button', { name: 'Conectar Google Calendar' }).isDisabled(), 'nothing to connect to');
    await barePage.goto('/calendar');
    await barePage.getByRole('region', { name: 'Google Calendar' }).getByText('No configurado en este servidor').waitFor();
  });
});
