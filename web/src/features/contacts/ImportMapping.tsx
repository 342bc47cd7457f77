import type { ImportPreview } from './api';

export const FIELD_LABELS: Record<string, string> = {
  firstName: 'Nombre',
  lastName: 'Apellido',
  email: 'Correo',
  phone: 'Teléfono',
  company: 'Empresa',
  tags: 'Etiquetas',
  '': 'No importar',
};

interface ImportMappingProps {
  preview: ImportPreview;
  mapping: string[];
  onChange: (index: number, field: string) => void;
}

/** The mapping step: each column, the field it goes to (changeable), and the first rows under it. */
export function ImportMapping({ preview, mapping, onChange }: ImportMappingProps) {
  const unmapped = preview.headers.filter((h, i) => mapping[i] === '' && h.trim() !== '');
  return (
    <section aria-label="Asignación de columnas" className="import-mapping">
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">Vista previa de las primeras filas</caption>
          <thead>
            <tr>
              {preview.headers.map((header, i) => (
                <th key={i} scope="col">
                  <span>{header || `Columna ${i + 1}`}</span>
                  {preview.format === 'csv' ? (
                    <select aria-label={`Campo para ${header || `columna ${i + 1}`}`} value={mapping[i] ?? ''} onChange={(e) => onChange(i, e.currentTarget.value)}>
                      {Object.entries(FIELD_LABELS).map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    <span> → {FIELD_LABELS[mapping[i] ?? '']}</span>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.line}>
                {preview.headers.map((_, i) => (
                  <td key={i}>{row.cells[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted import-unmapped">{unmapped.length > 0 ? `Columnas que no se importarán: ${unmapped.join(', ')}` : 'Todas las columnas tienen un campo.'}</p>
    </section>
  );
}
