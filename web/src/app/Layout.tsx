import type { ReactNode } from 'react';
import { useSession } from '../lib/session-state';
import { Sidebar } from './Sidebar';

export function Layout({ children }: { children: ReactNode }) {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="app-shell">
      <a className="skip-link" href="#contenido">
        Saltar al contenido
      </a>
      <Sidebar user={user} />
      <main id="contenido" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
