import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { connect, disconnect, getStatus, resetSession, syncContacts, type WhatsAppConnectResult, type WhatsAppStatus } from './api';

/** Spec section 9: the QR lives 60 s (countdown and re-check); disconnected without a QR is polled every 5 s. */
export const QR_SECONDS = 60;
export const POLL_DISCONNECTED_MS = 5_000;

export type Busy = 'connect' | 'refresh' | 'reset' | 'disconnect' | 'sync' | null;

export interface Connection {
  status: WhatsAppStatus | null;
  /** The last status load failed: what is on screen may be old. */
  failed: boolean;
  qrCode: string | null;
  /** What the server said to do next when a connect brought neither a QR nor a connection. */
  notice: string | null;
  secondsLeft: number;
  busy: Busy;
  connectNow: () => Promise<void>;
  refreshQr: () => Promise<void>;
  reset: () => Promise<void>;
  disconnectNow: () => Promise<void>;
  sync: () => Promise<void>;
  reload: () => Promise<void>;
}

/** The connection panel's state machine: status polling, the QR countdown and the buttons' actions. */
export function useConnection(onConnected: () => void): Connection {
  const [status, setStatus] = useState<WhatsAppStatus | null>(null);
  const [failed, setFailed] = useState(false);
  const [qrCode, setQrCode] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(QR_SECONDS);
  const [busy, setBusy] = useState<Busy>(null);
  const wasConnected = useRef<boolean | null>(null);
  const onConnectedRef = useRef(onConnected);
  onConnectedRef.current = onConnected;

  const apply = useCallback((next: WhatsAppStatus) => {
    setStatus(next);
    setFailed(false);
    if (next.connected) {
      setQrCode(null);
      setNotice(null);
      if (wasConnected.current === false) {
        toast.success('¡Conectado con éxito!');
        onConnectedRef.current();
      }
    }
    wasConnected.current = next.connected;
  }, []);

  const reload = useCallback(async () => {
    try {
      apply(await getStatus());
    } catch (err) {
      console.error('No se pudo cargar la información de WhatsApp', err);
      setFailed(true);
      toast.error('No se pudo cargar la información de WhatsApp');
    }
  }, [apply]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const showQr = (result: WhatsAppConnectResult) => {
    setNotice(result.message ?? null);
    if (result.connected) {
      void reload();
      return;
    }
    setQrCode(result.qrCode);
    setSecondsLeft(QR_SECONDS);
    void getStatus().then(apply, () => undefined);
  };

  // Disconnected with no QR on screen: poll every 5 s (the phone may be linked from another tab or replica).
  const connected = status?.connected ?? false;
  useEffect(() => {
    if (connected || qrCode) return undefined;
    const timer = setInterval(() => void getStatus().then(apply, () => setFailed(true)), POLL_DISCONNECTED_MS);
    return () => clearInterval(timer);
  }, [connected, qrCode, apply]);

  // A QR on screen: a 60 s countdown; at zero the status is checked, then either connected or a fresh QR.
  useEffect(() => {
    if (!qrCode) return undefined;
    const timer = setInterval(() => setSecondsLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, [qrCode]);

  useEffect(() => {
    if (!qrCode || secondsLeft > 0) return;
    let current = true;
    void (async () => {
      try {
        const next = await getStatus();
        if (!current) return;
        apply(next);
        if (!next.connected) showQr(await connect());
      } catch (err) {
        console.error('No se pudo actualizar el QR', err);
        if (current) {
          toast.error('No se pudo actualizar el QR');
          setQrCode(null);
        }
      }
    })();
    return () => {
      current = false;
    };
    // showQr is recreated each render on purpose left out: the countdown reaching zero is the only trigger.
  }, [qrCode, secondsLeft, apply]);

  const run = async (kind: Exclude<Busy, null>, work: () => Promise<void>, failure: string) => {
    setBusy(kind);
    try {
      await work();
    } catch (err) {
      console.error(failure, err);
      toast.error(failure);
      // The server's own Spanish answer says what to do next; it stays on the card, not only in a toast.
      setNotice(err instanceof ApiError ? err.message : 'No se pudo contactar con el servidor. Comprueba tu conexión a internet e inténtalo de nuevo.');
      void getStatus().then(apply, () => undefined);
    } finally {
      setBusy(null);
    }
  };

  return {
    status,
    failed,
    qrCode,
    notice,
    secondsLeft,
    busy,
    reload,
    connectNow: () => run('connect', async () => showQr(await connect()), 'No se pudo iniciar la conexión'),
    refreshQr: () => run('refresh', async () => showQr(await connect()), 'No se pudo actualizar el QR'),
    reset: () =>
      run(
        'reset',
        async () => {
          wasConnected.current = false;
          const result = await resetSession();
          showQr(result);
          // Without a QR the card says why and what to do; the success toast promises a QR to scan.
          if (result.qrCode) toast.success('Sesión restablecida. Escanea el nuevo QR.');
        },
        'No se pudo restablecer la sesión',
      ),
    disconnectNow: () =>
      run(
        'disconnect',
        async () => {
          await disconnect();
          wasConnected.current = false;
          setQrCode(null);
          setNotice(null);
          apply(await getStatus());
          toast.success('Sesión desconectada');
        },
        'No se pudo desconectar',
      ),
    sync: () =>
      run(
        'sync',
        async () => {
          const { created, updated } = await syncContacts();
          toast.success(`Sincronizados: ${created} nuevos, ${updated} actualizados`);
        },
        'No se pudo sincronizar',
      ),
  };
}
