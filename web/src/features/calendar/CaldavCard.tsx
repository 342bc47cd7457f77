import { CALDAV_PRESETS } from '@asistente/contracts';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { connectCaldav, disconnectCaldav, type CaldavCalendarEntry, type CaldavStatus } from './api';
import { CaldavNewCalendar } from './CaldavNewCalendar';
import './caldav.css';

interface CaldavCardProps {
  status: CaldavStatus | null;
  /** The account's calendars as the screen last read them; null while not known. */
  calendars: CaldavCalendarEntry[] | null;
  /** After a connection, a disconnection or a new calendar: the screen reloads statuses, calendars and events. */
  onChanged: () => void;
}

const hostOf = (url: string | null) => {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return url ?? '';
  }
};

/**
 * The CalDAV card of Calendario: iCloud, Fastmail, Nextcloud or any CalDAV server, connected with the user
 * and an app password (the server checks them before anything is kept); status, calendars and disconnect.
 */
export function CaldavCard({ status, calendars, onChanged }: CaldavCardProps) {
  const [url, setUrl] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const connected = status?.connected === true;

  const connect = async (event: FormEvent) => {
    event.preventDefault();
    if (!url.trim() || !username.trim() || !password) {
      setError('Indica la dirección del servidor, el usuario y la contraseña de aplicación');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await connectCaldav({ url: url.trim(), username: username.trim(), password });
      setPassword('');
      toast.success('Calendario CalDAV conectado');
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const disconnect = async () => {
    setBusy(true);
    try {
      await disconnectCaldav();
      toast.success('Calendario CalDAV desconectado');
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card cal-card caldav-card" aria-labelledby="cal-caldav-card">
      <h2 id="cal-caldav-card" className="card-title">
        CalDAV (iCloud, Fastmail, Nextcloud)
      </h2>
      {status === null ? (
        <p className="muted">Comprobando conexión...</p>
      ) : connected ? (
        <>
          <p className="muted">
            Conectado como {status.username} en {hostOf(status.url)}
          </p>
          {calendars !== null && calendars.length > 0 && (
            <ul className="caldav-calendars" aria-label="Calendarios CalDAV">
              {calendars.map((c) => (
                <li key={c.id}>
                  <span className="caldav-dot" style={{ background: c.color ?? undefined }} aria-hidden="true" />
                  {c.name}
                </li>
              ))}
            </ul>
          )}
          {calendars !== null && calendars.length === 0 && <CaldavNewCalendar onCreated={onChanged} />}
          <div className="cal-card-actions">
            <Button variant="secondary" small onClick={() => void disconnect()} disabled={busy}>
              Desconectar
            </Button>
          </div>
        </>
      ) : (
        <form className="caldav-form" onSubmit={(e) => void connect(e)} noValidate>
          <div className="caldav-presets" role="group" aria-label="Servidores habituales">
            {CALDAV_PRESETS.map((p) => (
              <button key={p.id} type="button" className="caldav-preset" onClick={() => setUrl(p.url)}>
                {p.name}
              </button>
            ))}
          </div>
          <TextField label="Dirección del servidor" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://caldav.icloud.com" autoComplete="url" />
          <TextField label="Usuario" value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="username" />
          <TextField
            label="Contraseña de aplicación"
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="current-password"
            hint="Créala en la configuración de seguridad de tu cuenta (iCloud, Fastmail o Nextcloud); no uses tu contraseña habitual."
          />
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="cal-card-actions">
            <Button type="submit" small disabled={busy}>
              {busy ? 'Conectando...' : 'Conectar'}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
