import { timeAgo } from '../../lib/time-ago';
import { Icon } from '../../ui/Icon';
import type { ActivityItem } from './activity';

export function RecentActivity({ items }: { items: ActivityItem[] | null }) {
  return (
    <section className="card" aria-labelledby="actividad-reciente">
      <h2 id="actividad-reciente" className="card-title">
        Actividad Reciente
      </h2>
      {items === null ? (
        <p className="muted">Cargando...</p>
      ) : items.length === 0 ? (
        <p className="muted">Sin actividad reciente. Aquí verás tus contactos, mensajes, correos y reuniones a medida que ocurran.</p>
      ) : (
        <ul className="activity-list">
          {items.map((item) => (
            <li key={item.id}>
              <span className="activity-icon" aria-hidden="true">
                <Icon name="clock" size={16} />
              </span>
              <span className="activity-text">{item.text}</span>
              <time dateTime={item.at} className="muted">
                {timeAgo(item.at)}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
