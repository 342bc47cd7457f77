import { useCallback, useEffect, useState } from 'react';
import { describeBrowser, type SecurityActivityPage } from '@asistente/contracts';
import { Button } from '../../ui/Button';
import { Pagination } from '../../ui/Pagination';
import { ACTIVITY_PAGE_SIZE, describeActivity, fetchSecurityActivity, formatActivityAt } from './security-activity';
import './security-activity.css';

/** Configuración → "Actividad de seguridad": who entered the account, and what changed in its access, newest first. */
export function SecurityActivityCard() {
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<SecurityActivityPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [reload, setReload] = useState(0);

  useEffect(() => {
    let current = true;
    fetchSecurityActivity(page)
      .then((body) => {
        if (!current) return;
        setResult(body);
        setFailed(false);
      })
      .catch((err: unknown) => {
        console.error('No se pudo cargar la actividad de seguridad', err);
        if (current) setFailed(true);
      });
    return () => {
      current = false;
    };
  }, [page, reload]);

  const refresh = useCallback(() => setReload((n) => n + 1), []);

  return (
    <section className="card security-activity" aria-labelledby="actividad-seguridad">
      <div className="security-activity-header">
        <h2 id="actividad-seguridad" className="card-title">
          Actividad de seguridad
        </h2>
        <Button variant="secondary" small onClick={refresh}>
          Actualizar
        </Button>
      </div>
      <p className="muted">Inicios de sesión, cambios de contraseña e integraciones de los últimos 90 días.</p>
      {failed && <p role="alert">No se pudo cargar la actividad de seguridad. Inténtalo de nuevo.</p>}
      {!result && !failed && <p className="muted">Cargando...</p>}
      {result && result.data.length === 0 && <p className="muted">Todavía no hay actividad registrada.</p>}
      {result && result.data.length > 0 && (
        <>
          <ul className="security-activity-list">
            {result.data.map((row) => (
              <li key={row.id} className={`security-activity-item${row.type === 'login.failed' ? ' security-activity-failed' : ''}`}>
                <p className="security-activity-what">{describeActivity(row.type, row.detail)}</p>
                <p className="muted security-activity-where">
                  <time dateTime={row.at}>{formatActivityAt(row.at)}</time>
                  {row.ip && <span> · {row.ip}</span>}
                  {row.userAgent && <span> · {describeBrowser(row.userAgent)}</span>}
                </p>
              </li>
            ))}
          </ul>
          <Pagination page={result.pagination.page} pageSize={ACTIVITY_PAGE_SIZE} total={result.pagination.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
