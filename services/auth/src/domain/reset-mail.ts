import { escapeHtml } from './mail-html.js';
import type { SystemMail } from './system-mailer.js';

/** The Spanish mail carrying a reset link: what it is for, how long it works, what to do if it was not you. */
export function resetMail(to: string, firstName: string, url: string): SystemMail {
  const lines = [
    `Hola ${firstName}:`,
    '',
    'Hemos recibido una petición para restablecer la contraseña de tu cuenta de Mi Asistente.IA.',
    'Para elegir una contraseña nueva, abre este enlace en los próximos 30 minutos:',
    '',
    url,
    '',
    'El enlace solo funciona una vez. Al cambiar la contraseña se cerrarán todas tus sesiones abiertas.',
    'Si no has sido tú, ignora este correo: tu contraseña no cambia.',
  ];
  const link = escapeHtml(url);
  const html = [
    `<p>Hola ${escapeHtml(firstName)}:</p>`,
    '<p>Hemos recibido una petición para restablecer la contraseña de tu cuenta de Mi Asistente.IA.',
    'Para elegir una contraseña nueva, abre este enlace en los próximos 30 minutos:</p>',
    `<p><a href="${link}">Restablecer mi contraseña</a></p>`,
    `<p>Si el botón no funciona, copia esta dirección en tu navegador:<br>${link}</p>`,
    '<p>El enlace solo funciona una vez. Al cambiar la contraseña se cerrarán todas tus sesiones abiertas.',
    'Si no has sido tú, ignora este correo: tu contraseña no cambia.</p>',
  ].join('\n');
  return { to, subject: 'Restablece tu contraseña de Mi Asistente.IA', text: lines.join('\n'), html };
}
