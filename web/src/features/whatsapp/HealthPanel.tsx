import { useEffect, useId, useState } from 'react';
import { getHealth, type WhatsAppHealth } from './api';
import { healthLines } from './health';

const REFRESH_MS = 15_000;

/** How the connection is doing, in words a shop owner understands; refreshed while on screen. */
export function HealthPanel({ version }: { version: unknown }) {
  const titleId = useId();
  const [health, setHealth] = useState<WhatsAppHealth | null>(null);
  const [failed, setFailed] = useState(false);

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
      <h2 id={titleId} className="card-title">
        Salud de la conexión
      </h2>
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
    </section>
  );
}
