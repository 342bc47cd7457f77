import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import { roleAllows } from '@asistente/contracts';
import { usePermissions } from '../../lib/workspace-roles';
import { INTEGRATIONS, type IntegrationState } from './integrations';

export function IntegrationsCard() {
  // null while the integration is being checked.
  const [states, setStates] = useState<(IntegrationState | null)[]>(() => INTEGRATIONS.map(() => null));
  const manages = usePermissions((role) => INTEGRATIONS.map(({ setUp }) => !setUp || roleAllows(role, setUp.method, setUp.path)));

  useEffect(() => {
    let current = true;
    INTEGRATIONS.forEach((integration, index) => {
      integration
        .check()
        .catch((err: unknown) => {
          console.error(`No se pudo comprobar ${integration.name}`, err);
          return integration.absent;
        })
        .then((state) => {
          if (current) setStates((s) => s.map((st, i) => (i === index ? state : st)));
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
          const state = states[index];
          const verb = manages?.[index] === true ? 'Gestionar' : 'Ver';
          return (
            <li key={integration.href} className="integration">
              <div>
                <p className="integration-name">{integration.name}</p>
                <p className="muted">{integration.description}</p>
              </div>
              <span className={`badge badge-${state?.tone ?? 'checking'}`}>{state?.label ?? 'Comprobando...'}</span>
              <Link href={integration.href} className="btn btn-secondary btn-sm" aria-label={`${verb} ${integration.name}`}>
                {verb}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
