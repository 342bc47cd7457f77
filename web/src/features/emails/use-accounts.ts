import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { listIntegrations, providerStatus, type EmailIntegration, type OAuthProvidersStatus } from './api';

export interface Accounts {
  accounts: EmailIntegration[] | null;
  providers: OAuthProvidersStatus | null;
  error: string | null;
  reload: () => void;
  /** An account just connected, shown before the list is read again. */
  add: (account: EmailIntegration) => void;
}

/** The connected mailboxes and whether Gmail/Outlook can be connected on this server. */
export function useAccounts(): Accounts {
  const [accounts, setAccounts] = useState<EmailIntegration[] | null>(null);
  const [providers, setProviders] = useState<OAuthProvidersStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    Promise.all([listIntegrations(), providerStatus()]).then(
      ([loaded, status]) => {
        if (!current) return;
        setAccounts(loaded);
        setProviders(status);
        setError(null);
      },
      (err: unknown) => {
        console.error('No se pudieron cargar las cuentas de correo', err);
        if (current) setError(`No se pudieron cargar las cuentas de correo: ${errorMessage(err)}`);
      },
    );
    return () => {
      current = false;
    };
  }, [version]);

  const add = useCallback((account: EmailIntegration) => {
    setAccounts((current) => [...(current ?? []).filter((a) => a.id !== account.id), account]);
  }, []);
  return { accounts, providers, error, reload: useCallback(() => setVersion((v) => v + 1), []), add };
}
