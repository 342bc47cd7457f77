import { useEffect, useState, type MouseEvent } from 'react';
import type { AccountExport } from '@asistente/contracts';
import { saveBlob } from '../../lib/download';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { downloadExport, EXPORT_POLL_MS, fetchCurrentExport, fetchExport, formatSize, formatUntil, startExport } from './account-export';
import './account-export.css';

/**
 * Configuración → "Descargar mis datos": asks the server to build a ZIP of everything the account holds,
 * shows its progress while it is built in the background, then offers the download for 24 hours. `workspace`:
 * the archive holds the workspace's shared data too (the owner's); otherwise the member's own data only.
 */
export function AccountExportCard({ workspace }: { workspace: boolean }) {
  const [current, setCurrent] = useState<AccountExport | null>(null);
  const [starting, setStarting] = useState(false);
  const [downloading, setDownloading] = useState(false);

  // A reload finds the build still running or the archive still downloadable where it was left.
  useEffect(() => {
    let open = true;
    fetchCurrentExport()
      .then((found) => open && found && setCurrent((shown) => shown ?? found))
      .catch((err: unknown) => console.error('No se pudo leer la exportación de datos en curso', err));
    return () => {
      open = false;
    };
  }, []);

  // While the build runs, its progress is asked again every second.
  useEffect(() => {
    if (current?.status !== 'running') return;
    const timer = setTimeout(() => {
      fetchExport(current.id)
        .then(setCurrent)
        .catch((err: unknown) => toast.error(errorMessage(err)));
    }, EXPORT_POLL_MS);
    return () => clearTimeout(timer);
  }, [current]);

  // Past its expiry the server refuses the download: the link goes with it.
  useEffect(() => {
    if (current?.status !== 'ready' || !current.expiresAt) return;
    const timer = setTimeout(() => setCurrent(null), Math.max(0, Date.parse(current.expiresAt) - Date.now()));
    return () => clearTimeout(timer);
  }, [current]);

  const onStart = async () => {
    setStarting(true);
    try {
      const started = await startExport();
      setCurrent(await fetchExport(started.id));
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setStarting(false);
    }
  };

  const onDownload = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (!current || downloading) return;
    setDownloading(true);
    try {
      const file = await downloadExport(current.id);
      saveBlob(file.blob, file.filename ?? 'mis-datos.zip');
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setDownloading(false);
    }
  };

  const running = current?.status === 'running';
  return (
    <section className="card account-export" aria-labelledby="descargar-datos">
      <h2 id="descargar-datos" className="card-title">
        Descargar mis datos
      </h2>
      <p className="muted">
        {workspace
          ? 'Un archivo ZIP con tu perfil, contactos, chats de WhatsApp, correos, eventos del calendario, la configuración y las ejecuciones del asistente, las respuestas automáticas, las analíticas y la actividad de seguridad del espacio de trabajo.'
          : 'Un archivo ZIP con tus datos: tu perfil, tus correos, los eventos de tus calendarios y lo que has hecho en la actividad de seguridad. Los contactos y los chats son del espacio de trabajo: los descarga su propietario.'}{' '}
        Nunca incluye contraseñas, claves ni tokens.
      </p>
      {running && (
        <div className="account-export-progress">
          <progress max={100} value={current.progress} aria-labelledby="exportacion-progreso" />
          <span id="exportacion-progreso" role="status">
            Preparando tus datos… {current.progress}%
          </span>
        </div>
      )}
      {current?.status === 'failed' && <p role="alert">No se pudo preparar el archivo. Vuelve a intentarlo.</p>}
      {current?.status === 'ready' && current.downloadUrl && (
        <p className="account-export-ready">
          <a href={current.downloadUrl} onClick={onDownload} download aria-busy={downloading}>
            {downloading ? 'Descargando…' : `Descargar el ZIP${current.size ? ` (${formatSize(current.size)})` : ''}`}
          </a>
          {current.expiresAt && <span className="muted"> · disponible hasta el {formatUntil(current.expiresAt)}</span>}
        </p>
      )}
      <div className="form-actions">
        <Button type="button" onClick={onStart} disabled={starting || running} variant={current?.status === 'ready' ? 'secondary' : 'primary'}>
          {starting ? 'Solicitando…' : current?.status === 'ready' ? 'Preparar otra vez' : 'Descargar mis datos'}
        </Button>
      </div>
    </section>
  );
}
