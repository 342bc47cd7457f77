/** What the OAuth callback reports in `?microsoft=` when it sends the browser back here. */
export interface ConnectOutcome {
  kind: 'success' | 'error';
  message: string;
}

export const CONNECT_OUTCOMES: Record<string, ConnectOutcome> = {
  connected: { kind: 'success', message: '¡Microsoft Teams conectado!' },
  denied: { kind: 'error', message: 'No diste permiso a Microsoft 365: la conexión se canceló.' },
  invalid: { kind: 'error', message: 'El enlace de conexión caducó o no es válido: vuelve a pulsar Conectar Microsoft Teams.' },
  // The callback reached a browser that did not start the connection, or its link was already used.
  mismatch: { kind: 'error', message: 'No se pudo completar la conexión. Vuelve a intentarlo desde esta pantalla.' },
  failed: { kind: 'error', message: 'Microsoft no completó la conexión: inténtalo de nuevo.' },
  forbidden: {
    kind: 'error',
    message: 'Tu organización no permite a esta aplicación leer tu perfil de Microsoft 365: consulta a tu administrador.',
  },
  unreachable: { kind: 'error', message: 'No se pudo conectar con Microsoft: inténtalo de nuevo en unos minutos.' },
  unconfigured: { kind: 'error', message: 'Microsoft 365 no está configurado en este servidor.' },
};
