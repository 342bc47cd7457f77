import { useId } from 'react';
import { Button } from '../../ui/Button';
import { Icon } from '../../ui/Icon';
import { RoleNote } from '../../ui/RoleNote';
import type { KeyStatus } from './api';

interface KeyStatusCardProps {
  status: KeyStatus | null;
  /** Absent for a role that may not remove the key: no button. */
  onDelete?: (() => void) | undefined;
  /** The role may not change the key: the card says so. */
  readOnly: boolean;
}

export function KeyStatusCard({ status, onDelete, readOnly }: KeyStatusCardProps) {
  const titleId = useId();
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Estado de la API key
      </h2>
      {status === null ? (
        <p className="muted" role="status">
          Cargando...
        </p>
      ) : (
        <div className="key-status">
          <p className="key-status-text">{status.exists ? `API key guardada (••••${status.last4 ?? ''})` : 'Sin API key'}</p>
          {/* valid: false once OpenAI refused the key in an assistant run; saving a new key clears it. */}
          {status.exists && status.valid === false ? (
            <span className="badge badge-missing" title="OpenAI rechazó esta API key: guarda una nueva">
              Rechazada por OpenAI
            </span>
          ) : (
            <span className={`badge ${status.exists ? 'badge-connected' : 'badge-missing'}`}>{status.exists ? 'Cargada' : 'Faltante'}</span>
          )}
          {status.exists && onDelete && (
            <Button variant="danger" small onClick={onDelete}>
              <Icon name="trash" size={16} />
              Eliminar API key
            </Button>
          )}
        </div>
      )}
      {readOnly && <RoleNote>Solo un administrador puede cambiar la API key</RoleNote>}
    </section>
  );
}
