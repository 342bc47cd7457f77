import type { AccountDeletionProgress } from '@asistente/contracts';
import { STATUS_LABEL } from './account-deletion';

/** Each service's part of the erasure, with what a provider could not confirm (the data is erased anyway). */
export function DeletionProgress({ progress }: { progress: AccountDeletionProgress | null }) {
  const services = progress?.services ?? [];
  const done = services.filter((s) => s.status === 'done').length;
  return (
    <div className="delete-account-progress" role="status" aria-live="polite">
      <p>
        {progress?.status === 'done'
          ? 'Todos tus datos se han eliminado.'
          : `Tu cuenta está cerrada. Borrando tus datos en cada servicio… (${done} de ${services.length || '…'})`}
      </p>
      <ul aria-label="Progreso por servicio">
        {services.map((service) => (
          <li key={service.service} data-status={service.status}>
            <span className="delete-account-service">{service.label}</span>
            <span className="delete-account-status">{STATUS_LABEL[service.status]}</span>
            {service.problems.map((problem) => (
              <p key={problem} className="delete-account-problem">
                {problem}
              </p>
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}
