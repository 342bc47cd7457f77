import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import type { BulkProgress } from './use-bulk-run';

interface BulkBarProps {
  count: number;
  /** Offered when the whole page is picked and more contacts match. */
  matching: { total: number; capped: boolean } | null;
  allMatching: boolean;
  progress: BulkProgress | null;
  onSelectAllMatching: () => void;
  onClear: () => void;
  onTag: () => void;
  onExport: () => void;
  /** Absent for a role that may not delete many contacts at once: no delete button. */
  onDelete?: (() => void) | undefined;
}

const number = (n: number) => n.toLocaleString('es-ES');

export function BulkBar({ count, matching, allMatching, progress, onSelectAllMatching, onClear, onTag, onExport, onDelete }: BulkBarProps) {
  const busy = progress !== null;
  return (
    <div className="bulk-bar">
      <div className="bulk-actions">
        <span>{allMatching ? `${number(count)} seleccionados (todos los que coinciden)` : count === 1 ? '1 seleccionado' : `${number(count)} seleccionados`}</span>
        <Button variant="secondary" small onClick={onTag} disabled={busy}>
          <Icon name="tag" size={16} />
          Etiquetar
        </Button>
        <Button variant="secondary" small onClick={onExport} disabled={busy}>
          <Icon name="download" size={16} />
          Exportar selección
        </Button>
        {onDelete && (
          <Button variant="danger" small onClick={onDelete} disabled={busy}>
            <Icon name="trash" size={16} />
            Eliminar seleccionados
          </Button>
        )}
        <Button variant="ghost" small onClick={onClear} disabled={busy}>
          Anular selección
        </Button>
      </div>
      {matching && !allMatching && (
        <p className="bulk-matching">
          <Button variant="ghost" small onClick={onSelectAllMatching}>
            {matching.capped ? `Seleccionar todos los que coinciden (más de ${number(matching.total)})` : `Seleccionar los ${number(matching.total)} que coinciden`}
          </Button>
        </p>
      )}
      {progress && (
        <div className="bulk-progress" role="status">
          <label>
            {progress.done === null
              ? `${progress.label}: ${number(progress.total)} contactos...`
              : `${progress.label}: ${number(progress.done)} de ${number(progress.total)}`}
            <progress max={progress.total} {...(progress.done === null ? {} : { value: progress.done })} />
          </label>
        </div>
      )}
    </div>
  );
}
