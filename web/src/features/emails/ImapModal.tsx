import { useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { connectImap, testImap, type EmailIntegration, type ImapIntegrationBody } from './api';
import { IMAP_PRESETS } from './imap-presets';

interface ImapModalProps {
  onClose: () => void;
  /** The account as saved: shown at once (its first sync starting), before the list is read again. */
  onConnected: (account: EmailIntegration) => void;
}

interface Form {
  preset: string;
  email: string;
  user: string;
  password: string;
  imapHost: string;
  imapPort: string;
  imapSecure: boolean;
  smtpHost: string;
  smtpPort: string;
  smtpSecure: boolean;
}

const EMPTY: Form = {
  preset: '',
  email: '',
  user: '',
  password: '',
  imapHost: '',
  imapPort: '993',
  imapSecure: true,
  smtpHost: '',
  smtpPort: '465',
  smtpSecure: true,
};

function toBody(form: Form): ImapIntegrationBody {
  const user = form.user.trim() || form.email.trim();
  return {
    provider: 'imap',
    credentials: {
      email: form.email.trim(),
      imap: { host: form.imapHost.trim(), port: Number(form.imapPort), secure: form.imapSecure, user, password: form.password },
      smtp: { host: form.smtpHost.trim(), port: Number(form.smtpPort), secure: form.smtpSecure, user, password: form.password },
    },
  };
}

/** The IMAP/SMTP card's form: a preset fills the servers, "Probar conexión" logs in to both, then it is saved. */
export function ImapModal({ onClose, onConnected }: ImapModalProps) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [state, setState] = useState<'idle' | 'testing' | 'ok' | 'saving'>('idle');
  const [error, setError] = useState<string | null>(null);
  const preset = IMAP_PRESETS.find((p) => p.label === form.preset);

  const update = (patch: Partial<Form>) => {
    setForm((current) => ({ ...current, ...patch }));
    setState('idle');
    setError(null);
  };

  const choosePreset = (label: string) => {
    const chosen = IMAP_PRESETS.find((p) => p.label === label);
    update(
      chosen
        ? {
            preset: label,
            imapHost: chosen.imap.host,
            imapPort: String(chosen.imap.port),
            imapSecure: chosen.imap.secure,
            smtpHost: chosen.smtp.host,
            smtpPort: String(chosen.smtp.port),
            smtpSecure: chosen.smtp.secure,
          }
        : { preset: '' },
    );
  };

  const missing = !form.email.trim() || !form.password || !form.imapHost.trim() || !form.smtpHost.trim() || !form.imapPort || !form.smtpPort;

  const test = async () => {
    setState('testing');
    setError(null);
    try {
      await testImap(toBody(form));
      setState('ok');
    } catch (err) {
      setError(errorMessage(err));
      setState('idle');
    }
  };

  const save = async () => {
    setState('saving');
    try {
      const account = await connectImap(toBody(form));
      toast.success('Cuenta de correo conectada');
      onConnected(account);
    } catch (err) {
      setError(errorMessage(err));
      setState('idle');
    }
  };

  return (
    <Modal
      title="Conectar cuenta IMAP/SMTP"
      onClose={onClose}
      dirty={form !== EMPTY && state !== 'saving'}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button variant="secondary" disabled={missing || state === 'testing' || state === 'saving'} onClick={() => void test()}>
            {state === 'testing' ? 'Probando...' : 'Probar conexión'}
          </Button>
          <Button disabled={state !== 'ok'} onClick={() => void save()}>
            {state === 'saving' ? 'Guardando...' : 'Guardar cuenta'}
          </Button>
        </>
      }
    >
      <div className="field">
        <label htmlFor="mail-preset">Proveedor</label>
        <select id="mail-preset" value={form.preset} onChange={(e) => choosePreset(e.target.value)}>
          <option value="">Otro (configuración manual)</option>
          {IMAP_PRESETS.map((p) => (
            <option key={p.label} value={p.label}>
              {p.label}
            </option>
          ))}
        </select>
        {preset?.hint && <p className="field-hint">{preset.hint}</p>}
      </div>
      <TextField label="Correo electrónico" type="email" autoComplete="email" value={form.email} onChange={(e) => update({ email: e.target.value })} />
      <TextField label="Usuario (si no es el correo)" value={form.user} onChange={(e) => update({ user: e.target.value })} />
      <TextField label="Contraseña" type="password" autoComplete="current-password" value={form.password} onChange={(e) => update({ password: e.target.value })} />
      <fieldset className="mail-server">
        <legend>Servidor de entrada (IMAP)</legend>
        <TextField label="Servidor IMAP" value={form.imapHost} onChange={(e) => update({ imapHost: e.target.value })} />
        <TextField label="Puerto IMAP" inputMode="numeric" value={form.imapPort} onChange={(e) => update({ imapPort: e.target.value.replace(/\D/g, '') })} />
        <label className="mail-check">
          <input type="checkbox" checked={form.imapSecure} onChange={(e) => update({ imapSecure: e.target.checked })} /> SSL/TLS (IMAP)
        </label>
      </fieldset>
      <fieldset className="mail-server">
        <legend>Servidor de salida (SMTP)</legend>
        <TextField label="Servidor SMTP" value={form.smtpHost} onChange={(e) => update({ smtpHost: e.target.value })} />
        <TextField label="Puerto SMTP" inputMode="numeric" value={form.smtpPort} onChange={(e) => update({ smtpPort: e.target.value.replace(/\D/g, '') })} />
        <label className="mail-check">
          <input type="checkbox" checked={form.smtpSecure} onChange={(e) => update({ smtpSecure: e.target.checked })} /> SSL/TLS (SMTP)
        </label>
      </fieldset>
      {state === 'ok' && (
        <p className="mail-ok" role="status">
          Conexión correcta con IMAP y SMTP. Ya puedes guardar la cuenta.
        </p>
      )}
      {error && (
        <p className="alert-warning" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
