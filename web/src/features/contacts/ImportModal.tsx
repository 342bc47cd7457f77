import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { importContacts } from './api';
import type { ImportReport } from './types';

interface ImportModalProps {
  onClose: () => void;
  onImported: () => void;
}

export function ImportModal({ onClose, onImported }: ImportModalProps) {
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setProgress(0);
    setReport(null);
    try {
      setReport(await importContacts(file, setProgress));
      onImported();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setProgress(null);
    }
  };

  const uploading = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);

  return (
    <Modal title="Importar contactos" onClose={onClose}>
      <form onSubmit={onSubmit}>
        <p className="muted">
          Sube un archivo CSV con una fila de encabezados y una fila por contacto. Columnas: nombre, apellido, correo,
          teléfono, empresa y etiquetas (separadas por punto y coma). Si el correo ya existe, el contacto se actualiza.
        </p>
        <div className="field">
          <label htmlFor={fileId}>Archivo CSV</label>
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            disabled={uploading}
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        </div>
        {uploading && (
          <div className="progress-block">
            <label htmlFor={`${fileId}-progress`}>{percent < 100 ? `Subiendo archivo... ${percent}%` : 'Procesando contactos...'}</label>
            <progress id={`${fileId}-progress`} max={100} value={percent} />
          </div>
        )}
        {report && <ImportSummary report={report} />}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            {report ? 'Cerrar' : 'Cancelar'}
          </Button>
          <Button type="submit" disabled={!file || uploading}>
            {uploading ? 'Importando...' : 'Importar'}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

const ERRORS_SHOWN = 50;

function ImportSummary({ report }: { report: ImportReport }) {
  return (
    <section className="import-report" aria-live="polite" aria-label="Resultado de la importación">
      <h3>Importación completada</h3>
      <dl className="import-counts">
        <div>
          <dt>Creados</dt>
          <dd>{report.created}</dd>
        </div>
        <div>
          <dt>Actualizados</dt>
          <dd>{report.updated}</dd>
        </div>
        <div>
          <dt>Omitidos</dt>
          <dd>{report.skipped}</dd>
        </div>
      </dl>
      {report.errors.length > 0 && (
        <>
          <h4>Líneas con errores</h4>
          <ul className="import-errors">
            {report.errors.slice(0, ERRORS_SHOWN).map((e) => (
              <li key={e.line}>
                Línea {e.line}: {e.message}
              </li>
            ))}
          </ul>
          {report.errors.length > ERRORS_SHOWN && <p className="muted">Y {report.errors.length - ERRORS_SHOWN} líneas más con errores.</p>}
        </>
      )}
    </section>
  );
}
