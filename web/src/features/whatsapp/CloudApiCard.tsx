import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { usePermissions } from '../../lib/workspace-roles';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/TextField';
import { connectCloud, disconnectCloud, whatsappPermissions, type WhatsAppStatus } from './api';

/** Meta's quality rating of the number, in the owner's words (an unknown rating is shown as Meta gives it). */
const QUALITY_WORDS: Record<string, string> = { GREEN: 'Alta (verde)', YELLOW: 'Media (amarilla)', RED: 'Baja (roja)', UNKNOWN: 'Sin valorar todavía' };

/**
 * The other way to carry the workspace's WhatsApp: Meta's official Cloud API (no phone to link, no risk of a
 * ban). Connected, it names the number and its quality; otherwise managers may fill in the three values of
 * Meta's dashboard (while no phone is linked by QR: one number, one provider).
 */
export function CloudApiCard({ status, onChanged }: { status: WhatsAppStatus | null; onChanged: () => void }) {
  const titleId = useId();
  const can = usePermissions(whatsappPermissions);
  const [open, setOpen] = useState(false);
  const [phoneNumberId, setPhoneNumberId] = useState('');
  const [businessAccountId, setBusinessAccountId] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!status) return null;
  const onCloud = status.provider === 'cloud';
  // A phone linked by QR is the workspace's provider: nothing to offer here but to read.
  if (!onCloud && status.connected) return null;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await connectCloud({ phoneNumberId: phoneNumberId.trim(), businessAccountId: businessAccountId.trim(), accessToken: accessToken.trim() });
      toast.success(`API oficial de WhatsApp conectada${result.name ? `: ${result.name}` : ''}`);
      setAccessToken('');
      setOpen(false);
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function disconnect() {
    setBusy(true);
    try {
      await disconnectCloud();
      toast.success('API oficial de WhatsApp desconectada');
      onChanged();
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card wa-cloud" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        API oficial de WhatsApp (Cloud API)
      </h2>
      {onCloud ? (
        <>
          <p className="muted">Este espacio de trabajo envía y recibe por la API oficial de WhatsApp.</p>
          <dl className="wa-cloud-number">
            <dt>Número</dt>
            <dd>{[status.name, status.phone].filter(Boolean).join(' · ') || 'Sin nombre'}</dd>
            {status.qualityRating && (
              <>
                <dt>Calidad</dt>
                <dd>{QUALITY_WORDS[status.qualityRating] ?? status.qualityRating}</dd>
              </>
            )}
          </dl>
          {can?.disconnectCloud && (
            <Button variant="secondary" disabled={busy} onClick={() => void disconnect()}>
              {busy ? 'Desconectando...' : 'Desconectar API oficial'}
            </Button>
          )}
        </>
      ) : !can?.connectCloud ? (
        <p className="muted">Solo un administrador puede conectar la API oficial de WhatsApp.</p>
      ) : !open ? (
        <>
          <p className="muted">Sin teléfono vinculado ni riesgo de bloqueo: usa el número de tu cuenta de WhatsApp Business en Meta.</p>
          <Button variant="secondary" onClick={() => setOpen(true)}>
            Usar la API oficial de WhatsApp
          </Button>
        </>
      ) : (
        <form className="wa-cloud-form" onSubmit={(e) => void submit(e)} noValidate>
          <TextField label="Identificador del número de teléfono" value={phoneNumberId} inputMode="numeric" onChange={(e) => setPhoneNumberId(e.target.value)} required />
          <TextField label="Identificador de la cuenta de WhatsApp Business" value={businessAccountId} inputMode="numeric" onChange={(e) => setBusinessAccountId(e.target.value)} required />
          <TextField
            label="Token de acceso"
            type="password"
            autoComplete="off"
            value={accessToken}
            onChange={(e) => setAccessToken(e.target.value)}
            hint="Un token permanente de un usuario del sistema de tu negocio en Meta"
            required
          />
          <FormError message={error} />
          <div className="wa-actions">
            <Button type="submit" disabled={busy || !phoneNumberId.trim() || !businessAccountId.trim() || !accessToken.trim()}>
              {busy ? 'Conectando...' : 'Conectar API oficial'}
            </Button>
            <Button variant="secondary" type="button" disabled={busy} onClick={() => setOpen(false)}>
              Cancelar
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}
