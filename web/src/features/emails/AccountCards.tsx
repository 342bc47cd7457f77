import { useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { useConnectInNewTab } from '../../lib/use-connect-in-new-tab';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { NotConfiguredNote } from '../../ui/NotConfiguredNote';
import { connectUrl, disconnect, setTracking, type EmailIntegration, type OAuthProvidersStatus } from './api';

interface AccountCardsProps {
  accounts: EmailIntegration[] | null;
  providers: OAuthProvidersStatus | null;
  error: string | null;
  onChanged: () => void;
  onOpenImap: () => void;
}

/** `settings`: what the server's administrator sets for an OAuth provider (shown to them when it is missing). */
const CARDS = [
  { provider: 'gmail', title: 'Gmail', settings: ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] },
  { provider: 'outlook', title: 'Outlook', settings: ['MICROSOFT_CLIENT_ID', 'MICROSOFT_CLIENT_SECRET'] },
  { provider: 'imap', title: 'IMAP/SMTP', settings: [] },
] as const;

/** Spec: status cards for Gmail, Outlook and IMAP/SMTP, each connecting and disconnecting its accounts. */
export function AccountCards({ accounts, providers, error, onChanged, onOpenImap }: AccountCardsProps) {
  const [busy, setBusy] = useState<string | null>(null);
  // The switch moves when pressed; it goes back if the server refuses.
  const [chosen, setChosen] = useState<Record<string, boolean>>({});

  // The Gmail/Outlook callback lands on this screen with `?connected=<provider>` or an `?error=` in Spanish.
  const { connect: connectInNewTab } = useConnectInNewTab({
    name: 'mail',
    params: ['connected', 'error'],
    onOutcome: ({ connected, error: failure }) => {
      if (connected) {
        toast.success(`Cuenta de ${connected === 'gmail' ? 'Gmail' : 'Outlook'} conectada`);
        onChanged();
      }
      if (failure) toast.error(failure);
    },
  });

  const connectOAuth = async (provider: 'gmail' | 'outlook') => {
    setBusy(provider);
    try {
      await connectInNewTab(async () => (await connectUrl(provider)).url);
    } catch (err) {
      toast.error(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const changeTracking = async (account: EmailIntegration, tracking: boolean) => {
    setBusy(`tracking:${account.id}`);
    setChosen((current) => ({ ...current, [account.id]: tracking }));
    try {
      await setTracking(account.id, tracking);
      toast.success(tracking ? 'Seguimiento activado para esta cuenta' : 'Seguimiento desactivado para esta cuenta');
      onChanged();
    } catch (err) {
      setChosen((current) => ({ ...current, [account.id]: account.tracking }));
      toast.error(`No se pudo cambiar el seguimiento: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  };

  const remove = async (account: EmailIntegration) => {
    setBusy(account.id);
    try {
      await disconnect(account.id);
      toast.success('Cuenta desconectada');
      onChanged();
    } catch (err) {
      toast.error(`No se pudo desconectar: ${errorMessage(err)}`);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="mail-accounts">
      {error && (
        <p className="alert-warning" role="alert">
          {error}
        </p>
      )}
      {CARDS.map(({ provider, title, settings }) => {
        const mine = (accounts ?? []).filter((a) => a.provider === provider);
        const oauth = provider === 'imap' ? null : providers?.[provider];
        const connected = mine.some((a) => a.connected);
        return (
          <section key={provider} className="card mail-account" aria-label={`Cuenta ${title}`}>
            <header>
              <h2>{title}</h2>
              {accounts === null ? (
                <span className="badge badge-checking">Comprobando...</span>
              ) : (
                <span className={connected ? 'badge badge-connected' : 'badge badge-disconnected'}>{connected ? 'Conectado' : 'Desconectado'}</span>
              )}
            </header>
            {mine.map((account) => (
              <div key={account.id} className="mail-account-row">
                <div>
                  <p className="mail-account-email">{account.email}</p>
                  {account.error && <p className="field-error">{account.error}</p>}
                  {account.lastSyncAt && <p className="muted mail-small">Sincronizado {new Date(account.lastSyncAt).toLocaleString('es')}</p>}
                </div>
                <Button variant="secondary" small disabled={busy === account.id} onClick={() => void remove(account)}>
                  {busy === account.id ? 'Desconectando...' : 'Desconectar'}
                </Button>
                <div className="mail-tracking">
                  <label className="mail-check">
                    <input
                      type="checkbox"
                      role="switch"
                      checked={chosen[account.id] ?? account.tracking}
                      disabled={busy === `tracking:${account.id}`}
                      aria-describedby={`tracking-${account.id}`}
                      onChange={(e) => void changeTracking(account, e.target.checked)}
                    />{' '}
                    Seguimiento de aperturas y clics
                  </label>
                  <p id={`tracking-${account.id}`} className="muted mail-small">
                    Añade a tus correos una imagen invisible y enlaces que pasan por este servidor para saber cuándo se abren y qué
                    enlaces se pulsan. Las normas europeas de privacidad piden que tus destinatarios estén informados y, a menudo, que lo
                    acepten: por eso está desactivado salvo que lo actives. Puedes cambiarlo en cada correo al redactarlo.
                  </p>
                </div>
              </div>
            ))}
            {oauth && !oauth.configured && oauth.message && <NotConfiguredNote message={oauth.message} variables={settings} />}
            {provider === 'imap' ? (
              <Button small onClick={onOpenImap}>
                Conectar IMAP/SMTP
              </Button>
            ) : (
              !connected && (
                <Button small disabled={!oauth?.configured || busy === provider} onClick={() => void connectOAuth(provider)}>
                  {busy === provider ? `Abriendo ${title}...` : `${mine.length > 0 ? 'Reconectar' : 'Conectar'} ${title}`}
                </Button>
              )
            )}
          </section>
        );
      })}
    </div>
  );
}
