import { useEffect, useId, useState } from 'react';
import { getHealth, type WhatsAppHealth } from './api';
import { healthLines, STATE_WORDS } from './health';
import { useOpenedOnPhone } from './phone-fold';

const REFRESH_MS = 15_000;

/** How the connection is doing, in words a shop owner understands; refreshed while on screen. */
export function HealthPanel({ version }: { version: unknown }) {
  const titleId = useId();
  const [health, setHealth] = useState<WhatsAppHealth | null>(null);
  const [failed, setFailed] = useState(false);
  // A phone shows the state on the folded title line and opens the rest on demand.
  const openAtFirst = !useOpenedOnPhone();

  useEffect(() => {
    let current = true;
    const load = () =>
      getHealth().then(
        (loaded) => {
          if (!current) return;
          setHealth(loaded);
          setFailed(false);
        },
        (err: unknown) => {
          console.error('No se pudo cargar el estado de la conexión', err);
          if (current) setFailed(true);
        },
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      current = false;
      clearInterval(timer);
    };
  }, [version]);

  return (
    <section className="card wa-health" aria-labelledby={titleId}>
      <details open={openAtFirst}>
        <summary>
          <h2 id={titleId} className="card-title">
            Salud de la conexión
          </h2>
          {health && <span className="wa-health-state">{STATE_WORDS[health.state]}</span>}
        </summary>
        {failed && <p className="alert-warning">No se pudo cargar el estado de la conexión.</p>}
        {health === null && !failed && (
          <p className="muted" role="status">
            Cargando...
          </p>
        )}
        {health && (
          <dl className="wa-health-list">
            {healthLines(health).map((line) => (
              <div key={line.label} className={line.warn ? 'is-warn' : undefined}>
                <dt>{line.label}</dt>
                <dd>{line.value}</dd>
              </div>
            ))}
          </dl>
        )}
      </details>
    </section>
  );
}
