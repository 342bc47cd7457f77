import { dismissToast, useToasts } from '../lib/toasts';

/**
 * Errors are alerts (read out at once), successes are statuses (read out politely). A repeated message
 * shows once with its count ("×3") rather than stacking.
 */
export function Toasts() {
  const toasts = useToasts();
  return (
    <section className="toasts" aria-label="Notificaciones">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} data-count={t.count}>
          <span>
            {t.message}
            {t.count > 1 && <span className="toast-count"> ×{t.count}</span>}
          </span>
          <button type="button" className="icon-btn" aria-label="Cerrar notificación" onClick={() => dismissToast(t.id)}>
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
