import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { importContacts, previewImport, type ImportPreview } from './api';
import { ImportMapping } from './ImportMapping';
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
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mapping, setMapping] = useState<string[]>([]);
  const [check, setCheck] = useState<ImportReport | null>(null);

  /** The chosen mapping as the import takes it: every CSV header -> its field ('' = left out). */
  const map = (): Record<string, string> | undefined =>
    preview?.format === 'csv' ? Object.fromEntries(preview.headers.map((h, i) => [h, mapping[i] ?? ''])) : undefined;

  const pick = (picked: File | null) => {
    setFile(picked);
    setPreview(null);
    setCheck(null);
    setReport(null);
    if (!picked) return;
    previewImport(picked).then(
      (answer) => {
        setPreview(answer);
        setMapping(answer.mapping);
      },
      (err: unknown) => toast.error(errorMessage(err)),
    );
  };

  const dryRun = async () => {
    if (!file) return;
    try {
      setCheck(await importContacts(file, () => undefined, map(), true));
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setProgress(0);
    setReport(null);
    try {
      setReport(await importContacts(file, setProgress, map()));
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
    <Modal title="Importar contactos" onClose={onClose} wide>
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
            accept=".csv,.vcf,text/csv,text/vcard"
            disabled={uploading}
            onChange={(e) => pick(e.currentTarget.files?.[0] ?? null)}
          />
        </div>
        {preview && !report && (
          <ImportMapping
            preview={preview}
            mapping={mapping}
            onChange={(index, field) => {
              setMapping((m) => m.map((f, i) => (i === index ? field : f)));
              setCheck(null);
            }}
          />
        )}
        {preview && !report && (
          <div className="import-check">
            <Button variant="secondary" small onClick={() => void dryRun()} disabled={uploading}>
              Comprobar filas
            </Button>
            {check && (
              <div role="status" aria-label="Filas que fallarán">
                {check.errors.length === 0 ? (
                  <p>Ninguna fila fallará.</p>
                ) : (
                  <ul className="import-errors">
                    {check.errors.map((e) => (
                      <li key={e.line}>
                        Línea {e.line}: {e.message}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            )}
          </div>
        )}
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
      {report.skippedLines && report.skippedLines.length > 0 && (
        <>
          <h4>Líneas omitidas</h4>
          <ul className="import-errors" aria-label="Líneas omitidas">
            {report.skippedLines.map((s) => (
              <li key={s.line}>
                Línea {s.line}: {s.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {report.errors.length > 0 && (
        <>
          <h4>Líneas con errores</h4>
          <ul className="import-errors">
            {report.errors.map((e) => (
              <li key={e.line}>
                Línea {e.line}: {e.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
