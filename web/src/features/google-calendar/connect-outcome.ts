/** What the OAuth callback reports in `?google=` when it sends the browser back here. */
export const CONNECT_OUTCOMES: Record<string, { kind: 'success' | 'error'; message: string }> = {
  connected: { kind: 'success', message: '¡Google Calendar conectado!' },
  denied: { kind: 'error', message: 'No diste permiso a Google Calendar: la conexión se canceló' },
  invalid: { kind: 'error', message: 'El enlace de conexión caducó. Vuelve a pulsar Conectar Google Calendar' },
  // The callback reached a browser that did not start the connection, or its link was already used.
  mismatch: { kind: 'error', message: 'No se pudo completar la conexión. Vuelve a intentarlo desde esta pantalla.' },
  failed: { kind: 'error', message: 'Google no completó la conexión. Inténtalo de nuevo en unos minutos' },
  unconfigured: { kind: 'error', message: 'Google Calendar no está configurado en este servidor' },
};
