import { readFile } from 'node:fs/promises';
import t from 'tap';
import type { Page } from 'playwright-core';
import { expectCleanLayout } from './fixtures/layout-check.js';
import { appAndBrowser, browserSuite, LAPTOP, PHONE, registerUser, screenshot, signedInPage } from './fixtures/harness.js';

const SIZES = [LAPTOP, PHONE] as const;

/** What Spanish Excel saves: ';' between cells, the tags cell quoted because it holds the list separator. */
const SPANISH_EXCEL_FILE = ['Nombre;Apellido;Correo electrónico;Teléfono;Empresa;Etiquetas', 'Lucía;Horno;lucia@panaderia.es;+34 622 111 222;Panadería Lucía;"cliente;proveedor"'].join('\r\n');

const tagsOf = (page: Page, name: string) => page.locator('tr, li, article', { hasText: name }).last().locator('.tag');

browserSuite(t, () => {
  const stage = appAndBrowser(t);

  for (const size of SIZES) {
    t.test(`${size.width}×${size.height}: a ';' file from Spanish Excel gives two tags, and Exportar › Excel (España) opens in columns`, async (t) => {
      const page = await signedInPage(t, stage, await registerUser(stage.app), { viewport: size, path: '/contacts', timeout: 30_000 });

      await page.getByRole('button', { name: 'Importar' }).click();
      const dialog = page.getByRole('dialog', { name: 'Importar contactos' });
      await dialog.getByLabel('Archivo CSV').setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: Buffer.from('\uFEFF' + SPANISH_EXCEL_FILE) });
      await dialog.getByRole('region', { name: 'Asignación de columnas' }).waitFor();
      await expectCleanLayout(t, page, 'the import preview of the Excel file', '[role="dialog"]');
      await screenshot(page, `contactos-excel-columnas-${size.width}`);
      await dialog.getByRole('button', { name: 'Importar', exact: true }).click();
      await dialog.getByRole('region', { name: 'Resultado de la importación' }).waitFor();
      await dialog.getByRole('button', { name: 'Cerrar', exact: true }).click();
      const tags = tagsOf(page, 'lucia@panaderia.es');
      await tags.first().waitFor();
      t.same(await tags.allInnerTexts(), ['cliente', 'proveedor'], 'two tags, as the dialog promises');
      await screenshot(page, `contactos-excel-importado-${size.width}`);

      await page.getByRole('button', { name: 'Exportar' }).click();
      const choice = page.getByRole('dialog', { name: 'Exportar contactos' });
      t.ok(await choice.getByLabel(/Excel \(España\)/).isChecked(), 'the format Spanish Excel opens is offered first');
      await screenshot(page, `contactos-exportar-${size.width}`);
      await expectCleanLayout(t, page, 'the export format dialog', '[role="dialog"]');
      const [download] = await Promise.all([page.waitForEvent('download'), choice.getByRole('button', { name: 'Descargar' }).click()]);
      t.match(download.suggestedFilename(), /^contactos-excel-\d{4}-\d{2}-\d{2}\.csv$/);
      const bytes = await readFile(await download.path());
      t.equal(bytes.subarray(0, 3).toString('hex'), 'efbbbf', 'UTF-8 with a BOM, so Excel reads the accents');
      t.same(bytes.subarray(3).toString('utf8').split('\r\n'), [
        'Nombre;Apellido;Correo electrónico;Teléfono;Empresa;Etiquetas',
        'Lucía;Horno;lucia@panaderia.es;+34 622 111 222;Panadería Lucía;"cliente;proveedor"',
        '',
      ], "';' between cells, Spanish headers, the phone as written");
    });
  }
});
