import type { WhatsAppHealth } from './api';

/** Each state as the owner says it: what is happening, never how the service does it. */
export const STATE_WORDS: Record<WhatsAppHealth['state'], string> = {
  connected: 'Conectado',
  connecting: 'Conectando…',
  qr: 'Esperando que escanees el código QR',
  disconnected: 'Sin conectar',
  logged_out: 'Desvinculado desde el teléfono: hay que vincularlo de nuevo',
  error: 'Sin conexión ahora mismo; lo seguimos intentando',
  failed: 'No se pudo conectar',
};

/** Seconds as a shop owner says them: "hace 5 minutos". */
export function ago(seconds: number): string {
  if (seconds < 60) return 'hace unos segundos';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `hace ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `hace ${hours} ${hours === 1 ? 'hora' : 'horas'}`;
  const days = Math.round(hours / 24);
  return `hace ${days} días`;
}

interface HealthLine {
  label: string;
  value: string;
  warn?: boolean;
}

/** The health panel's lines, in plain words. */
export function healthLines(health: WhatsAppHealth, now = Date.now()): HealthLine[] {
  const since = Math.max(0, Math.round((now - new Date(health.since).getTime()) / 1000));
  return [
    { label: 'Estado', value: `${STATE_WORDS[health.state]} (desde ${ago(since)})`, warn: ['error', 'failed', 'logged_out'].includes(health.state) },
    // A given-up connection's reason only repeats its state; the card above says what to do.
    ...(health.error && health.state !== 'failed' ? [{ label: 'Motivo', value: health.error, warn: true }] : []),
    // Before a first link there is no link to have had activity, outages or unreadable messages: the failed
    // attempts of a number never linked are not outages, and the card above already says how they went.
    ...(health.everLinked ? linkLines(health) : []),
    {
      label: 'Mensajes esperando para salir',
      value: health.pendingMessages === 0 ? 'Ninguno' : `${health.pendingMessages} (saldrán en cuanto vuelva la conexión)`,
      warn: health.pendingMessages > 0,
    },
  ];
}

/** How a link that exists (or existed) has been doing. */
function linkLines(health: WhatsAppHealth): HealthLine[] {
  return [
    {
      label: 'Última actividad de WhatsApp',
      value: health.lastEventAgeSeconds === null ? 'Todavía ninguna' : ago(health.lastEventAgeSeconds),
    },
    {
      label: 'Cortes de conexión en la última hora',
      value: health.reconnectsLastHour === 0 ? 'Ninguna' : String(health.reconnectsLastHour),
      warn: health.reconnectsLastHour >= 5,
    },
    {
      label: 'Mensajes que no se pudieron leer',
      value: health.decryptFailures === 0 ? 'Ninguno' : String(health.decryptFailures),
    },
  ];
}
