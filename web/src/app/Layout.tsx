import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { useSession } from '../lib/session-state';
import { Icon } from '../ui/Icon';
import { Sidebar } from './Sidebar';

const MENU_ID = 'menu-lateral';

export function Layout({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // On a phone the sidebar is a drawer: it closes when the person goes somewhere.
  useEffect(() => setMenuOpen(false), [location]);

  useEffect(() => {
    if (!menuOpen) return undefined;
    document.querySelector<HTMLElement>(`#${MENU_ID} a, #${MENU_ID} button`)?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [menuOpen]);

  if (!user) return null;
  return (
    <div className={menuOpen ? 'app-shell menu-open' : 'app-shell'}>
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <header className="topbar">
        <button
          ref={menuButton}
          type="button"
          className="icon-btn menu-btn"
          aria-expanded={menuOpen}
          aria-controls={MENU_ID}
          aria-label={menuOpen ? 'Cerrar menú' : 'Abrir menú'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name="menu" size={22} />
        </button>
        <span className="topbar-brand">Mi Asistente.IA</span>
      </header>
      {menuOpen && <div className="drawer-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <Sidebar user={user} id={MENU_ID} />
      <main id="contenido" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
