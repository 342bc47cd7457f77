import { Link } from 'wouter';
import { Icon, type IconName } from '../../ui/Icon';

const ACTIONS: { label: string; href: string; icon: IconName }[] = [
  { label: 'Nuevo Mensaje', href: '/whatsapp', icon: 'message' },
  { label: 'Agendar Cita', href: '/calendar', icon: 'calendar' },
  { label: 'Nuevo Contacto', href: '/contacts?nuevo=1', icon: 'users' },
  { label: 'Enviar Correo', href: '/emails', icon: 'mail' },
];

export function QuickActions() {
  return (
    <section className="card" aria-labelledby="acciones-rapidas">
      <h2 id="acciones-rapidas" className="card-title">
        Acciones Rápidas
      </h2>
      <ul className="quick-actions">
        {ACTIONS.map((action) => (
          <li key={action.label}>
            <Link href={action.href} className="quick-action">
              <Icon name={action.icon} />
              <span>{action.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
