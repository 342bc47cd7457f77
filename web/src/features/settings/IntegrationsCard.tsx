import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { INTEGRATIONS } from './integrations';

type Status = 'checking' | 'connected' | 'disconnected';

const LABEL: Record<Status, string> = { checking: 'Comprobando...', connected: 'Conectado', disconnected: 'No conectado' };

export function IntegrationsCard() {
  const [statuses, setStatuses] = useState<Status[]>(() => INTEGRATIONS.map(() => 'checking'));

  useEffect(() => {
    let current = true;
    INTEGRATIONS.forEach((integration, index) => {
      integration
        .check()
        .catch((err: unknown) => {
          console.error(`No se pudo comprobar ${integration.name}`, err);
          return false;
        })
        .then((ok) => {
          if (current) setStatuses((s) => s.map((st, i) => (i === index ? (ok ? 'connected' : 'disconnected') : st)));
        });
    });
    return () => {
      current = false;
    };
  }, []);

  return (
    <section className="card" aria-labelledby="integraciones">
      <h2 id="integraciones" className="card-title">
        Integraciones
      </h2>
      <ul className="integration-list">
        {INTEGRATIONS.map((integration, index) => {
          const status = statuses[index] ?? 'checking';
          return (
            <li key={integration.href} className="integration">
              <div>
                <p className="integration-name">{integration.name}</p>
                <p className="muted">{integration.description}</p>
              </div>
              <span className={`badge badge-${status}`}>{LABEL[status]}</span>
              <Link href={integration.href} className="btn btn-secondary btn-sm" aria-label={`Gestionar ${integration.name}`}>
                Gestionar
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
