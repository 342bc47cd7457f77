export interface ServerPreset {
  label: string;
  imap: { host: string; port: number; secure: boolean };
  smtp: { host: string; port: number; secure: boolean };
  hint?: string;
}

/** The usual servers; "Otro" leaves the fields to the owner. */
export const IMAP_PRESETS: ServerPreset[] = [
  {
    label: 'Gmail (contraseña de aplicación)',
    imap: { host: 'imap.gmail.com', port: 993, secure: true },
    smtp: { host: 'smtp.gmail.com', port: 465, secure: true },
    hint: 'Usa una contraseña de aplicación de tu cuenta de Google, no tu contraseña habitual.',
  },
  {
    label: 'Outlook / Office 365',
    imap: { host: 'outlook.office365.com', port: 993, secure: true },
    smtp: { host: 'smtp.office365.com', port: 587, secure: false },
  },
  {
    label: 'Yahoo',
    imap: { host: 'imap.mail.yahoo.com', port: 993, secure: true },
    smtp: { host: 'smtp.mail.yahoo.com', port: 465, secure: true },
    hint: 'Yahoo pide una contraseña de aplicación.',
  },
  {
    label: 'iCloud',
    imap: { host: 'imap.mail.me.com', port: 993, secure: true },
    smtp: { host: 'smtp.mail.me.com', port: 587, secure: false },
    hint: 'iCloud pide una contraseña específica para apps.',
  },
  {
    label: 'Zoho',
    imap: { host: 'imap.zoho.eu', port: 993, secure: true },
    smtp: { host: 'smtp.zoho.eu', port: 465, secure: true },
  },
  {
    label: 'IONOS',
    imap: { host: 'imap.ionos.es', port: 993, secure: true },
    smtp: { host: 'smtp.ionos.es', port: 465, secure: true },
  },
];
