import type { WhatsAppHealth } from './api';

const STATE_WORDS: Record<WhatsAppHealth['state'], string> = {
  connected: 'Conectado y funcionando',
  connecting: 'Conectando con WhatsApp…',
  qr: 'Esperando a que escanees el código QR',
  disconnected: 'Sin conectar',
  logged_out: 'El teléfono cerró la sesión: hay que vincularlo de nuevo',
  error: 'Hay un problema con la conexión; se reintenta sola',
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

/** The health panel's lines, in plain words. */
export function healthLines(health: WhatsAppHealth, now = Date.now()): { label: string; value: string; warn?: boolean }[] {
  const since = Math.max(0, Math.round((now - new Date(health.since).getTime()) / 1000));
  return [
    { label: 'Estado', value: `${STATE_WORDS[health.state]} (${ago(since)})`, warn: health.state === 'error' || health.state === 'logged_out' },
    ...(health.error ? [{ label: 'Motivo', value: health.error, warn: true }] : []),
    {
      label: 'Última señal de WhatsApp',
      value: health.lastEventAgeSeconds === null ? 'Todavía ninguna' : ago(health.lastEventAgeSeconds),
    },
    {
      label: 'Reconexiones en la última hora',
      value: health.reconnectsLastHour === 0 ? 'Ninguna' : String(health.reconnectsLastHour),
      warn: health.reconnectsLastHour >= 5,
    },
    {
      label: 'Mensajes esperando para salir',
      value: health.pendingMessages === 0 ? 'Ninguno' : `${health.pendingMessages} (se enviarán al reconectar)`,
      warn: health.pendingMessages > 0,
    },
    {
      label: 'Mensajes que no se pudieron leer',
      value: health.decryptFailures === 0 ? 'Ninguno' : String(health.decryptFailures),
    },
    { label: 'Servidor que mantiene la conexión', value: health.owner ?? 'Ninguno ahora mismo' },
  ];
}
