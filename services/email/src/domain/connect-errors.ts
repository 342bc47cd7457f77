/**
 * Why a connection to a mail server failed, in a sentence the owner can act on. Both imapflow and
 * nodemailer put the socket error's code on the error they throw, and flag a refused login.
 */
export function connectionReason(error: unknown, host: string, port: number): string {
  const e = (error ?? {}) as { code?: string; authenticationFailed?: boolean; responseCode?: number; message?: string };
  if (e.authenticationFailed || e.code === 'EAUTH' || e.responseCode === 535) {
    return 'el servidor rechazó el usuario o la contraseña';
  }
  // imapflow with doSTARTTLS required, nodemailer with requireTLS: the server would not encrypt, so the
  // password was not sent.
  if (/does not support STARTTLS|Error upgrading connection with STARTTLS/.test(e.message ?? '')) {
    return `${host}:${port} no ofrece conexión cifrada (STARTTLS) y la contraseña no se envía sin cifrar; activa SSL/TLS (puertos 993 y 465) o pide al proveedor que active STARTTLS`;
  }
  switch (e.code) {
    case 'ECONNREFUSED':
      return `${host}:${port} rechazó la conexión`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `no se encontró el servidor ${host}`;
    case 'ETIMEDOUT':
    case 'ETIMEOUT':
    case 'CONNECT_TIMEOUT':
    case 'GREETING_TIMEOUT':
      return `${host}:${port} no respondió a tiempo`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'NoConnection':
    case 'EConnectionClosed':
      return `${host}:${port} cerró la conexión`;
    case 'ESOCKET':
    case 'ETLS':
      return `error de conexión segura con ${host}:${port} (revisa el puerto y la opción SSL/TLS)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} no es alcanzable desde el servidor`;
    default:
      if (/certificate|SSL|TLS|wrong version/i.test(e.message ?? '')) {
        return `error de conexión segura con ${host}:${port} (revisa el puerto y la opción SSL/TLS)`;
      }
      if (/timeout|timed out/i.test(e.message ?? '')) return `${host}:${port} no respondió a tiempo`;
      return `${host}:${port} no aceptó la conexión`;
  }
}

/** Rejects with `onTimeout()` when `promise` has not settled after `ms`. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
