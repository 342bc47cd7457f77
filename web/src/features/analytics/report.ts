import { isWeekly, weeklyActivity, weeklyGrowth } from './buckets';
import { channelsOf } from './channels';
import type { ChartTableData } from './ChartTable';
import { longDate } from './format';
import { teamTable } from './team';
import type { AnalyticsData } from './types';

/** The charts' figures as tables, as the screen shows them (weekly buckets for 90 days and a year). */
export function chartTables(data: AnalyticsData) {
  const weekly = isWeekly(data.period);
  const activity = weekly ? weeklyActivity(data.activity) : data.activity;
  const growth = weekly ? weeklyGrowth(data.growth) : data.growth;
  const dateColumn = weekly ? 'Semana del' : 'Fecha';
  const channels = channelsOf(data);
  return {
    weekly,
    activity: { points: activity, table: { caption: 'Actividad General', columns: [dateColumn, 'Actividad'], rows: activity.map((p) => [longDate(p.date), p.activity]) } },
    growth: { points: growth, table: { caption: 'Crecimiento de Contactos', columns: [dateColumn, 'Contactos'], rows: growth.map((p) => [longDate(p.date), p.contacts]) } },
    channels: { points: channels, table: { caption: 'Distribución por Canal', columns: ['Canal', 'Total'], rows: channels.map((c) => [c.name, c.value]) } },
    productivity: {
      caption: 'Productividad por Día',
      columns: ['Día', 'Emails', 'Mensajes', 'Reuniones', 'Contactos'],
      rows: data.productivity.map((p) => [p.day, p.emails, p.messages, p.meetings, p.contacts]),
    },
  };
}

/** A card's figures as a table of two columns. */
const figureTable = (caption: string, rows: [string, number][]): ChartTableData => ({ caption, columns: ['Indicador', 'Valor'], rows });

/** Every figure of the screen, the cards' included, as the tables of the exported report. */
export function reportTables(data: AnalyticsData): ChartTableData[] {
  const charts = chartTables(data);
  const { totals, emails, whatsapp } = data;
  return [
    figureTable('Totales', [
      ['Total Contactos', totals.totalContacts],
      ['Eventos', totals.totalEvents],
      ['Correos', totals.totalEmails],
      ['Mensajes', totals.totalMessages],
    ]),
    charts.activity.table,
    charts.growth.table,
    charts.channels.table,
    figureTable('Estadísticas de Email', [
      ['Enviados', emails.sent],
      ['Recibidos', emails.received],
      ['Abiertos', emails.opened],
      ['Clicks', emails.clicked],
    ]),
    figureTable('Estadísticas de WhatsApp', [
      ['Enviados', whatsapp.sent],
      ['Recibidos', whatsapp.received],
      ['Contactos', whatsapp.contacts],
      ['Auto-respuestas', whatsapp.autoReplies],
    ]),
    charts.productivity,
    teamTable(data),
  ];
}

const cell = (value: string | number) => {
  // A name typed by a person (a member's) starting with = + - @ would run as a formula in a spreadsheet.
  const text = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const BOM = '\uFEFF';
const lines = (t: ChartTableData) => [t.columns.map(cell).join(','), ...t.rows.map((row) => row.map(cell).join(','))];

/** One table as a CSV file of its own: its header row first (no caption), as the report's tables are written. */
export function tableCsv(table: ChartTableData): string {
  return `${BOM}${lines(table).join('\r\n')}\r\n`;
}

/**
 * The report as CSV: each table under its caption, a blank line between tables, CRLF line ends and a BOM so
 * spreadsheet programs read the accents (as the contacts export).
 */
export function reportCsv(tables: ChartTableData[]): string {
  const blocks = tables.map((t) => [cell(t.caption), ...lines(t)].join('\r\n'));
  return `${BOM}${blocks.join('\r\n\r\n')}\r\n`;
}
