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

/** How many of the first rows' values a column shows as its example. */
const SAMPLES = 3;

/**
 * The mapping step: one row per column of the file (its name, the field it goes to, changeable, and its first
 * values). A row per column rather than a column per column: a file of six or more columns was wider than the
 * dialog, its last choices reachable only by scrolling sideways, on a laptop as on a phone.
 */
export function ImportMapping({ preview, mapping, onChange }: ImportMappingProps) {
  const unmapped = preview.headers.filter((h, i) => mapping[i] === '' && h.trim() !== '');
  return (
    <section aria-label="Asignación de columnas" className="import-mapping">
      <table className="table">
        <caption className="sr-only">Columnas del archivo, el campo al que va cada una y sus primeros valores</caption>
        <thead>
          <tr>
            <th scope="col">Columna del archivo</th>
            <th scope="col">Importar como</th>
            <th scope="col">Primeras filas</th>
          </tr>
        </thead>
        <tbody>
          {preview.headers.map((header, i) => {
            const name = header || `Columna ${i + 1}`;
            const samples = preview.rows
              .map((row) => (row.cells[i] ?? '').trim())
              .filter((value) => value !== '')
              .slice(0, SAMPLES);
            return (
              <tr key={i}>
                <th scope="row" className="import-column">
                  {name}
                </th>
                <td className="import-field">
                  {preview.format === 'csv' ? (
                    <select aria-label={`Campo para ${header || `columna ${i + 1}`}`} value={mapping[i] ?? ''} onChange={(e) => onChange(i, e.currentTarget.value)}>
                      {Object.entries(FIELD_LABELS).map(([value, label]) => (
                        <option key={value} value={value}>
                          {label}
                        </option>
                      ))}
                    </select>
                  ) : (
                    FIELD_LABELS[mapping[i] ?? '']
                  )}
                </td>
                <td className="import-samples">
                  {samples.length > 0 ? (
                    <ul aria-label={`Primeros valores de ${name}`}>
                      {samples.map((value, j) => (
                        <li key={j}>{value}</li>
                      ))}
                    </ul>
                  ) : (
                    <span className="muted">Vacía en las primeras filas</span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted import-unmapped">{unmapped.length > 0 ? `Columnas que no se importarán: ${unmapped.join(', ')}` : 'Todas las columnas tienen un campo.'}</p>
    </section>
  );
}
