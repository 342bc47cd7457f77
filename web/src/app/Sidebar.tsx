import { Link, useLocation } from 'wouter';
import { logout } from '../lib/auth';
import { useSession } from '../lib/session-state';
import type { User } from '../lib/types';
import { Icon } from '../ui/Icon';
import { NAV_ITEMS, isActive } from './nav';
import { WorkspaceSwitcher } from './WorkspaceSwitcher';

/** `id` lets the phone layout's menu button control it (aria-controls). */
export function Sidebar({ user, id }: { user: User; id?: string }) {
  const [location, navigate] = useLocation();
  // The business is the workspace the session acts in (a member of someone else's team sees that team's name).
  const { workspace } = useSession();

  const signOut = () => {
    logout();
    navigate('/login', { replace: true });
  };

  return (
    <aside className="sidebar" id={id}>
      <div className="brand">
        <span className="brand-logo" aria-hidden="true">
          IA
        </span>
        <div>
          <p className="brand-name">Mi Asistente.IA</p>
          <p className="brand-sub">{workspace?.name || 'Asistente empresarial'}</p>
        </div>
      </div>
      <WorkspaceSwitcher />
      <nav aria-label="Navegación principal">
        <ul className="nav-list">
          {NAV_ITEMS.map((item) => {
            const active = isActive(item, location);
            return (
              <li key={item.path}>
                <Link
                  href={item.path}
                  className={active ? 'nav-link active' : 'nav-link'}
                  aria-current={active ? 'page' : undefined}
                >
                  <Icon name={item.icon} />
                  <span>{item.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      <div className="sidebar-footer">
        <div className="user-box">
          <span className="avatar" aria-hidden="true">
            {user.firstName.charAt(0).toUpperCase()}
          </span>
          <div className="user-text">
            <p className="user-name">{user.firstName}</p>
            <p className="user-email">{user.email}</p>
          </div>
        </div>
        <button type="button" className="btn btn-ghost logout-btn" onClick={signOut}>
          <Icon name="logout" size={18} />
          Cerrar Sesión
        </button>
      </div>
    </aside>
  );
}
