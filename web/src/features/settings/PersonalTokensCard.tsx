import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { CreatedPersonalToken, PersonalToken, PersonalTokenScope } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { CopyableSecret } from '../../ui/CopyableSecret';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/TextField';
import {
  createPersonalToken,
  EXPIRY_OPTIONS,
  fetchPersonalTokens,
  formatCreated,
  formatExpiry,
  formatLastUse,
  revokePersonalToken,
  SCOPE_GROUPS,
  SCOPE_LABELS,
} from './personal-tokens';
import './personal-tokens.css';

/** Configuración → "Tokens de acceso": tokens for scripts, integrations and AI clients, each bounded by its permissions. */
export function PersonalTokensCard() {
  const [tokens, setTokens] = useState<PersonalToken[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedPersonalToken | null>(null);
  const [revoking, setRevoking] = useState<PersonalToken | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    fetchPersonalTokens()
      .then((list) => {
        setTokens(list);
        setFailed(false);
      })
      .catch((err: unknown) => {
        console.error('No se pudieron cargar los tokens de acceso', err);
        setFailed(true);
      });
  }, []);

  useEffect(load, [load]);

  async function revoke(token: PersonalToken) {
    setBusy(true);
    try {
      await revokePersonalToken(token.id);
      toast.success('Token revocado');
      load();
    } catch (err) {
      toast.error(errorMessage(err));
    }
    setBusy(false);
    setRevoking(null);
  }

  return (
    <section className="card personal-tokens" aria-labelledby="tokens-de-acceso">
      <div className="personal-tokens-header">
        <h2 id="tokens-de-acceso" className="card-title">
          Tokens de acceso
        </h2>
        {!creating && !created && (
          <Button small onClick={() => setCreating(true)}>
            Nuevo token
          </Button>
        )}
      </div>
      <p className="muted">
        Para tus scripts, integraciones (n8n, Make, Zapier) y clientes de IA: cada token solo llega a lo que permiten sus permisos, y nunca a tu
        cuenta.
      </p>
      {created && <CreatedToken created={created} onDone={() => setCreated(null)} />}
      {creating && (
        <CreateTokenForm
          onCancel={() => setCreating(false)}
          onCreated={(token) => {
            setCreating(false);
            setCreated(token);
            load();
          }}
        />
      )}
      {failed && <p role="alert">No se pudieron cargar los tokens de acceso. Inténtalo de nuevo.</p>}
      {!tokens && !failed && <p className="muted">Cargando...</p>}
      {/* A revoked token is deleted, so the list cannot tell "never made one" from "revoked them all": both are true of this. */}
      {tokens && tokens.length === 0 && <p className="muted">No tienes tokens activos.</p>}
      {tokens && tokens.length > 0 && (
        <ul className="personal-tokens-list">
          {tokens.map((token) => (
            <li key={token.id} className="personal-token">
              <div className="personal-token-main">
                <p className="personal-token-name">
                  {token.name} <code className="personal-token-prefix">{token.prefix}…</code>
                </p>
                <p className="personal-token-scopes">{token.scopes.map((scope) => SCOPE_LABELS[scope]).join(' · ')}</p>
                <p className="muted personal-token-dates">
                  {formatCreated(token)} · {formatLastUse(token)} · {formatExpiry(token)}
                </p>
              </div>
              <Button variant="danger" small onClick={() => setRevoking(token)} aria-label={`Revocar ${token.name}`}>
                Revocar
              </Button>
            </li>
          ))}
        </ul>
      )}
      {revoking && (
        <ConfirmDialog
          title="Revocar token"
          message={`¿Revocar «${revoking.name}»? Lo que lo use perderá el acceso al momento. No se puede deshacer.`}
          confirmLabel="Revocar"
          busy={busy}
          onConfirm={() => void revoke(revoking)}
          onCancel={() => setRevoking(null)}
        />
      )}
    </section>
  );
}

/** The secret, once: a copy button and the warning that it will not be shown again. */
function CreatedToken({ created, onDone }: { created: CreatedPersonalToken; onDone: () => void }) {
  return (
    <div className="personal-token-created" role="status">
      <p className="personal-token-warning">Copia el token «{created.name}» ahora: no se volverá a mostrar.</p>
      <CopyableSecret value={created.token} label="Token de acceso" copiedMessage="Token copiado" className="copyable-value" />
      <div className="form-actions">
        <Button small onClick={onDone}>
          Listo, ya lo he copiado
        </Button>
      </div>
    </div>
  );
}

function CreateTokenForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (token: CreatedPersonalToken) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<PersonalTokenScope[]>([]);
  const [expiry, setExpiry] = useState<string>('90');
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const toggle = (scope: PersonalTokenScope) =>
    setScopes((chosen) => (chosen.includes(scope) ? chosen.filter((s) => s !== scope) : [...chosen, scope]));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = {
      ...(name.trim() ? {} : { name: 'El nombre del token es requerido' }),
      ...(scopes.length > 0 ? {} : { scopes: 'Elige al menos un permiso' }),
    };
    setErrors(found);
    if (found.name || found.scopes) return;
    setSaving(true);
    setServerError(null);
    try {
      onCreated(await createPersonalToken({ name: name.trim(), scopes, ...(expiry ? { expiresInDays: Number(expiry) as 30 | 90 | 365 } : {}) }));
      toast.success('Token creado');
    } catch (err) {
      setServerError(errorMessage(err));
    }
    setSaving(false);
  }

  return (
    <form className="personal-token-form" onSubmit={(event) => void submit(event)} noValidate aria-label="Nuevo token de acceso">
      <FormError message={serverError} />
      <TextField label="Nombre" value={name} maxLength={100} placeholder="Por ejemplo: Zapier" error={errors.name} onChange={(e) => setName(e.target.value)} />
      <fieldset className="personal-token-scopes-field" aria-invalid={errors.scopes ? true : undefined}>
        <legend>Permisos</legend>
        <div className="personal-token-groups">
          {SCOPE_GROUPS.map((group) => (
            <div key={group.area} className="personal-token-group" role="group" aria-label={group.area}>
              <p className="personal-token-area">{group.area}</p>
              {group.scopes.map((scope) => (
                <label key={scope} className="personal-token-check">
                  <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />
                  {SCOPE_LABELS[scope]}
                </label>
              ))}
            </div>
          ))}
        </div>
        {errors.scopes && <p className="field-error">{errors.scopes}</p>}
      </fieldset>
      <div className="field">
        <label htmlFor="personal-token-expiry">Caducidad</label>
        <select id="personal-token-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
          {EXPIRY_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="form-actions personal-token-actions">
        <Button variant="secondary" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? 'Creando...' : 'Crear token'}
        </Button>
      </div>
    </form>
  );
}
