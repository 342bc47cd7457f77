import { useState, type FormEvent } from 'react';
import type { ContactExportFormat } from '@asistente/contracts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';

interface ExportDialogProps {
  /** How many contacts the file holds, when known (a selection). */
  count?: number;
  onExport: (format: ContactExportFormat) => void;
  onClose: () => void;
}

const FORMATS: { value: ContactExportFormat; label: string; hint: string }[] = [
  { value: 'excel', label: 'Excel (España)', hint: 'Columnas separadas por punto y coma y cabeceras en español: Excel lo abre en columnas.' },
  { value: 'csv', label: 'CSV estándar', hint: 'Separado por comas, con los nombres de campo de la importación y la línea de comandos.' },
];

/** Which file to download: the one Spanish Excel opens in columns, or the standard CSV. Both import back. */
export function ExportDialog({ count, onExport, onClose }: ExportDialogProps) {
  const [format, setFormat] = useState<ContactExportFormat>('excel');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onExport(format);
  };
  const title = count === undefined ? 'Exportar contactos' : count === 1 ? 'Exportar 1 contacto' : `Exportar ${count.toLocaleString('es-ES')} contactos`;

  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={onSubmit}>
        <fieldset className="export-formats">
          <legend>Formato del archivo</legend>
          {FORMATS.map((f) => (
            <label key={f.value} className="export-format">
              <input type="radio" name="formato-exportacion" value={f.value} checked={format === f.value} onChange={() => setFormat(f.value)} />
              <span>
                <strong>{f.label}</strong>
                <span className="muted">{f.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit">Descargar</Button>
        </div>
      </form>
    </Modal>
  );
}
