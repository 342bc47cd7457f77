// The chat web's pure pieces: where widget.js finds its server, the colours it draws with, and the card's origins list.
import t from 'tap';
import { originsFromText } from '../src/features/settings/web-widget-fields.js';
import { safeColor, textOn } from '../widget/colors.js';
import { serverBase } from '../widget/script-source.js';

t.test('widget.js finds its server in the address it was loaded from', async (t) => {
  t.equal(serverBase('https://asistente.tu-negocio.es/widget.js'), 'https://asistente.tu-negocio.es');
  t.equal(serverBase('http://127.0.0.1:3000/widget.js'), 'http://127.0.0.1:3000');
  t.equal(serverBase('https://tu-negocio.es/asistente/widget.js?v=2'), 'https://tu-negocio.es/asistente', 'an install below a path keeps it; the query goes');
  t.equal(serverBase('https://cdn.example.com/otro.js'), null, 'not the widget');
  t.equal(serverBase('javascript:alert(1)//widget.js'), null, 'not a web address');
  t.equal(serverBase('widget.js'), null, 'not absolute');
});

t.test('the owner’s colour reaches the stylesheet only as #RRGGBB, with text that reads on it', async (t) => {
  t.equal(safeColor('#0F766E'), '#0F766E');
  t.equal(safeColor('red; } * { display: none'), '#2563eb', 'anything else is the house blue');
  t.equal(textOn('#2563eb'), '#ffffff');
  t.equal(textOn('#111827'), '#ffffff');
  t.equal(textOn('#fde047'), '#111827', 'dark text on yellow');
  t.equal(textOn('#ffffff'), '#111827');
});

t.test('«Orígenes permitidos» one a line become the API’s list', async (t) => {
  t.same(originsFromText(' https://www.tu-negocio.es/ \n\nhttp://localhost:8080\nhttps://www.tu-negocio.es\n'), ['https://www.tu-negocio.es', 'http://localhost:8080']);
  t.same(originsFromText('  \n '), []);
});
