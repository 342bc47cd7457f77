import { Button } from './Button';

const clock = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit' });

interface StaleNoticeProps {
  /** When the data on screen arrived. */
  updatedAt: Date | null;
  /** Offers "Reintentar" when given. */
  onRetry?: () => void;
}

/**
 * Says that the figures below are the last ones known, not current ones (the server is unreachable or the
 * last load failed). Pair it with `useLiveData().stale`, or your own flag, and keep the old data on screen.
 */
export function StaleNotice({ updatedAt, onRetry }: StaleNoticeProps) {
  return (
    <div className="stale-notice" role="status">
      <p>
        Datos sin actualizar{updatedAt ? ` (de las ${clock.format(updatedAt)})` : ''}: no se pudieron cargar los actuales.
      </p>
      {onRetry && (
        <Button variant="secondary" small onClick={onRetry}>
          Reintentar
        </Button>
      )}
    </div>
  );
}

/** Nothing could be loaded at all: say so (never show zeros as if they were true), with "Reintentar". */
export function LoadFailed({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div className="card load-failed" role="alert">
      <p>No se pudieron cargar {what}.</p>
      <Button variant="secondary" small onClick={onRetry}>
        Reintentar
      </Button>
    </div>
  );
}
