import type { MemberRole } from '@asistente/contracts';
import { escapeHtml } from './mail-html.js';
import type { SystemMail } from './system-mailer.js';

/** The role as the invited person reads it. */
export const ROLE_NAMES: Readonly<Record<MemberRole, string>> = { admin: 'administrador', agent: 'agente' };

/** The Spanish mail carrying an invitation: who invites, to what, as what, and for how long the link works. */
export function invitationMail(to: string, inviter: string, workspace: string, role: MemberRole, url: string, days: number): SystemMail {
  const lines = [
    'Hola:',
    '',
    `${inviter} te ha invitado a unirte a «${workspace}» en Mi Asistente.IA como ${ROLE_NAMES[role]}.`,
    `Para aceptar, abre este enlace en los próximos ${days} días:`,
    '',
    url,
    '',
    'El enlace solo funciona una vez. Si no esperabas esta invitación, ignora este correo.',
  ];
  const link = escapeHtml(url);
  const html = [
    '<p>Hola:</p>',
    `<p>${escapeHtml(inviter)} te ha invitado a unirte a «${escapeHtml(workspace)}» en Mi Asistente.IA como ${ROLE_NAMES[role]}.`,
    `Para aceptar, abre este enlace en los próximos ${days} días:</p>`,
    `<p><a href="${link}">Aceptar la invitación</a></p>`,
    `<p>Si el botón no funciona, copia esta dirección en tu navegador:<br>${link}</p>`,
    '<p>El enlace solo funciona una vez. Si no esperabas esta invitación, ignora este correo.</p>',
  ].join('\n');
  return { to, subject: `${inviter} te invita a ${workspace} en Mi Asistente.IA`, text: lines.join('\n'), html };
}
