import { Link } from 'wouter';
import { Icon, type IconName } from '../../ui/Icon';
import type { SetupStatus, SetupStep } from './setup';

const ACTIONS: { label: string; href: string; icon: IconName; needs?: SetupStep; missing?: string }[] = [
  { label: 'Nuevo Mensaje', href: '/whatsapp', icon: 'message', needs: 'whatsapp', missing: 'Conecta WhatsApp primero' },
  { label: 'Agendar Cita', href: '/calendar', icon: 'calendar', needs: 'calendar', missing: 'Conecta un calendario primero' },
  { label: 'Nuevo Contacto', href: '/contacts?nuevo=1', icon: 'users' },
  { label: 'Enviar Correo', href: '/emails', icon: 'mail', needs: 'mail', missing: 'Conecta tu correo primero' },
];

/**
 * An action that needs a channel not connected yet says so and leads to the screen where it is connected,
 * rather than promising something that cannot work. Until the status is known, it is treated as missing.
 */
export function QuickActions({ status }: { status: SetupStatus | null }) {
  return (
    <section className="card" aria-labelledby="acciones-rapidas">
      <h2 id="acciones-rapidas" className="card-title">
        Acciones Rápidas
      </h2>
      <ul className="quick-actions">
        {ACTIONS.map((action) => {
          const blocked = action.needs !== undefined && status?.[action.needs] !== true;
          return (
            <li key={action.label}>
              <Link href={action.href} className={blocked ? 'quick-action quick-action-blocked' : 'quick-action'}>
                <Icon name={action.icon} />
                <span>{action.label}</span>
                {blocked && <span className="quick-action-hint">{action.missing}</span>}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
