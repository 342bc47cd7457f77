import t from 'tap';
import { browserSuite, launchBrowser, registerUser, signedInContext, startApp } from './fixtures/harness.js';

browserSuite(t, () => {
  t.test('a server without the Google client says so, naming what the administrator must set', async (t) => {
    const bare = await startApp();
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    t.teardown(() => bare.stop());
    const owner = await registerUser(bare);
    const bareContext = await signedInContext(browser, bare, owner);
    t.teardown(() => bareContext.close());
    const barePage = await bareContext.newPage();
    await barePage.goto('/google-calendar');
    await barePage.getByText(/el administrador debe definir GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET/).waitFor();
    t.ok(await barePage.getByRole('button', { name: 'Conectar Google Calendar' }).isDisabled(), 'nothing to connect to');
    await barePage.goto('/calendar');
    await barePage.getByRole('region', { name: 'Google Calendar' }).getByText('No configurado en este servidor').waitFor();
  });
});
