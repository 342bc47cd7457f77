import { Button } from '../../ui/Button';
import type { BrowserNotices } from './use-browser-notices';

/** «Activar avisos del navegador» (off by default), its way back, or why the browser will not show them. */
export function NoticesToggle({ notices }: { notices: BrowserNotices }) {
  switch (notices.state) {
    case 'unsupported':
      return null;
    case 'blocked':
      return <p className="muted inbox-notices-note">Avisos bloqueados en este navegador</p>;
    case 'on':
      return (
        <Button variant="secondary" onClick={notices.turnOff}>
          Desactivar avisos del navegador
        </Button>
      );
    case 'off':
      return (
        <Button variant="secondary" disabled={notices.asking} onClick={() => void notices.turnOn()}>
          Activar avisos del navegador
        </Button>
      );
  }
}
