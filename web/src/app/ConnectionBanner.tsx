import { useConnection } from '../lib/connection';
import { Icon } from '../ui/Icon';

/** Shown from the first request the server did not answer until it answers again (lib/connection). */
export function ConnectionBanner() {
  const connection = useConnection();
  return (
    <div className="connection-slot" role="alert">
      {connection === 'offline' && (
        <p className="connection-banner">
          <Icon name="wifiOff" size={18} />
          Sin conexión con el servidor. Reintentando…
        </p>
      )}
    </div>
  );
}
