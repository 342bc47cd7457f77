import { useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { isEmail } from '../../lib/validation';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { forwardEmail, replyEmail, saveDraft, sendEmail, UNRESOLVED_VARIABLES, type EmailDetail, type EmailIntegration, type EmailTemplate, type OutgoingAttachment } from './api';
import { formatSize, readAsAttachment } from './format';
import { VariablePreview } from './VariablePreview';
import { hasVariables } from './variables';

export type ComposeMode = { kind: 'new'; template?: EmailTemplate; draft?: EmailDetail } | { kind: 'reply'; email: EmailDetail } | { kind: 'forward'; email: EmailDetail };

interface ComposeModalProps {
  mode: ComposeMode;
  templates: EmailTemplate[];
  /** The owner's mailboxes: a "De" picker when there are several. */
  accounts: EmailIntegration[];
  onClose: () => void;
  onSent: () => void;
  /** A draft was saved on the server (the Borradores list changed). */
  onDraftSaved: () => void;
}

const MAX_ATTACHMENTS = 25 * 1024 * 1024;
const TITLES = { new: 'Redactar Correo', reply: 'Responder', forward: 'Reenviar' } as const;

function recipientsError(list: string): string | undefined {
  const entries = list.split(/[,;]/).map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) return 'El destinatario es requerido';
  const bad = entries.find((e) => !isEmail(e.replace(/^.*<([^>]+)>\s*$/, '$1')));
  return bad ? `Correo inválido: ${bad}` : undefined;
}

const prefixed = (prefix: string, subject: string) => (new RegExp(`^${prefix}\\s*:`, 'i').test(subject) ? subject : `${prefix}: ${subject}`);

/** 'Redactar Correo' (with templates), and the same form answering or forwarding the open mail. */
export function ComposeModal({ mode, templates, accounts, onClose, onSent, onDraftSaved }: ComposeModalProps) {
  const draft = mode.kind === 'new' ? mode.draft : undefined;
  const [accountId, setAccountId] = useState(accounts[0]?.id ?? '');
  const [draftId, setDraftId] = useState(draft?.id);
  const [savingDraft, setSavingDraft] = useState(false);
  const [to, setTo] = useState(draft?.to ?? '');
  const [cc, setCc] = useState(draft?.cc ?? '');
  const [subject, setSubject] = useState(mode.kind === 'new' ? (draft?.subject ?? mode.template?.subject ?? '') : '');
  const [body, setBody] = useState(mode.kind === 'new' ? (draft?.text ?? mode.template?.body ?? '') : '');
  const [templateId, setTemplateId] = useState(mode.kind === 'new' ? (mode.template?.id ?? '') : '');
  const [all, setAll] = useState(false);
  // The account's choice (off unless the owner turned it on), changeable for this mail.
  const trackingOf = (id: string) => accounts.find((a) => a.id === id)?.tracking ?? false;
  // A reply, a forward or a draft goes from the mail's own account; a new mail from the one chosen in "De".
  const mailAccount = mode.kind === 'new' ? draft?.accountId : mode.email.accountId;
  // null until the owner ticks the box: the dialog then follows the account, also when the accounts reload
  // after a change made just before opening it.
  const [trackChoice, setTrackChoice] = useState<boolean | null>(null);
  const track = trackChoice ?? trackingOf(mailAccount ?? accountId);
  // The server refused to send with variables nothing fills: its message, until the owner confirms or edits.
  const [unresolved, setUnresolved] = useState<{ written: string; message: string } | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  // One key per mail as written: pressing Enviar again after a lost answer cannot send it twice, and a
  // mail changed after a failure is a new send.
  const sendKey = useRef<{ written: string; key: string } | null>(null);
  const [errors, setErrors] = useState<{ to?: string | undefined; subject?: string | undefined; body?: string | undefined; files?: string | undefined }>({});
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // What the last saved draft holds: closing after saving loses nothing.
  const [savedDraft, setSavedDraft] = useState(draft ? JSON.stringify([draft.to, draft.cc, draft.subject, draft.text ?? '']) : null);
  const unsaved = savedDraft !== JSON.stringify([to, cc, subject, body]) || files.length > 0;
  const dirty = unsaved && Boolean(to || cc || body || files.length || (mode.kind === 'new' && subject && !mode.template));

  // The template as written, variables and all: the server fills them for each recipient when it sends.
  const applyTemplate = (id: string) => {
    setTemplateId(id);
    const template = templates.find((t) => t.id === id);
    if (!template) return;
    setSubject(template.subject);
    setBody(template.body);
  };

  const chooseAccount = (id: string) => {
    setAccountId(id);
    setTrackChoice(null);
  };

  const validate = () => {
    const found = {
      to: mode.kind === 'reply' ? undefined : recipientsError(to),
      subject: mode.kind === 'new' && !subject.trim() ? 'El asunto es requerido' : undefined,
      body: mode.kind !== 'forward' && !body.trim() ? 'El mensaje es requerido' : undefined,
      files: files.reduce((sum, f) => sum + f.size, 0) > MAX_ATTACHMENTS ? 'Los adjuntos superan el límite de 25 MB' : undefined,
    };
    setErrors(found);
    return !Object.values(found).some(Boolean);
  };

  const written = JSON.stringify([mode.kind, to, cc, subject, body, all, track, accountId, draftId ?? null, files.map((f) => [f.name, f.size, f.lastModified])]);
  const warning = unresolved?.written === written ? unresolved.message : null;

  const submit = async (allowUnresolved = false) => {
    if (!validate()) return;
    setSending(true);
    setFailure(null);
    setUnresolved(null);
    if (sendKey.current?.written !== written) sendKey.current = { written, key: randomKey() };
    const key = sendKey.current.key;
    try {
      if (mode.kind === 'reply') await replyEmail(mode.email.id, { body, all, track }, key);
      else if (mode.kind === 'forward') await forwardEmail(mode.email.id, { to, body, track }, key);
      else {
        const attachments: OutgoingAttachment[] = await Promise.all(files.map(readAsAttachment));
        await sendEmail({
          to,
          ...(cc.trim() ? { cc } : {}),
          subject,
          body,
          track,
          ...(allowUnresolved ? { allowUnresolved } : {}),
          ...(attachments.length ? { attachments } : {}),
          ...(draftId ? { draftId } : accountId ? { accountId } : {}),
        }, key);
      }
      toast.success(mode.kind === 'forward' ? 'Correo reenviado' : 'Correo enviado');
      onSent();
    } catch (err) {
      if (err instanceof ApiError && err.code === UNRESOLVED_VARIABLES) setUnresolved({ written, message: err.message });
      else setFailure(errorMessage(err));
      setSending(false);
    }
  };

  const keepDraft = async () => {
    setSavingDraft(true);
    setFailure(null);
    try {
      const saved = await saveDraft({ to, cc, subject, body, ...(draftId ? { draftId } : accountId ? { accountId } : {}) });
      setDraftId(saved.id);
      setSavedDraft(JSON.stringify([to, cc, subject, body]));
      toast.success('Borrador guardado');
      onDraftSaved();
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setSavingDraft(false);
    }
  };

  return (
    <Modal
      title={TITLES[mode.kind]}
      onClose={onClose}
      dirty={dirty && !sending}
      wide
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          {mode.kind === 'new' && (
            <Button variant="secondary" disabled={sending || savingDraft} onClick={() => void keepDraft()}>
              {savingDraft ? 'Guardando...' : 'Guardar borrador'}
            </Button>
          )}
          <Button disabled={sending} onClick={() => void submit()}>
            {sending ? 'Enviando...' : 'Enviar'}
          </Button>
        </>
      }
    >
      {mode.kind === 'new' && !draftId && accounts.length > 1 && (
        <div className="field">
          <label htmlFor="compose-from">De</label>
          <select id="compose-from" value={accountId} onChange={(e) => chooseAccount(e.target.value)}>
            {accounts.map((a) => (
              <option key={a.id} value={a.id}>
                {a.email}
              </option>
            ))}
          </select>
        </div>
      )}
      {mode.kind === 'new' && templates.length > 0 && (
        <div className="field">
          <label htmlFor="compose-template">Plantilla</label>
          <select id="compose-template" value={templateId} onChange={(e) => applyTemplate(e.target.value)}>
            <option value="">Sin plantilla</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {mode.kind === 'reply' ? (
        <p className="mail-compose-meta">
          <strong>Para:</strong> {mode.email.from}
          <br />
          <strong>Asunto:</strong> {prefixed('Re', mode.email.subject)}
        </p>
      ) : (
        <TextField label="Para" type="text" inputMode="email" value={to} error={errors.to} onChange={(e) => setTo(e.target.value)} />
      )}
      {mode.kind === 'new' && (
        <>
          <TextField label="CC (opcional)" type="text" inputMode="email" value={cc} onChange={(e) => setCc(e.target.value)} />
          <TextField label="Asunto" value={subject} error={errors.subject} onChange={(e) => setSubject(e.target.value)} />
        </>
      )}
      {mode.kind === 'forward' && (
        <p className="mail-compose-meta">
          <strong>Asunto:</strong> {prefixed('Fwd', mode.email.subject)}
          {mode.email.attachments.length > 0 && <> · se reenvían {mode.email.attachments.length} adjunto(s)</>}
        </p>
      )}
      <div className="field">
        <label htmlFor="compose-body">Mensaje</label>
        <textarea
          id="compose-body"
          rows={9}
          value={body}
          aria-invalid={errors.body ? true : undefined}
          onChange={(e) => setBody(e.target.value)}
        />
        {errors.body && <p className="field-error">{errors.body}</p>}
      </div>
      {mode.kind === 'new' && hasVariables(subject, body) && <VariablePreview to={to} subject={subject} body={body} />}
      {mode.kind === 'new' && (
        <div className="field">
          <label htmlFor="compose-files">Adjuntos (hasta 25 MB en total)</label>
          <input id="compose-files" type="file" multiple onChange={(e) => setFiles(Array.from(e.target.files ?? []))} />
          {files.length > 0 && <p className="field-hint">{files.map((f) => `${f.name} (${formatSize(f.size)})`).join(', ')}</p>}
          {errors.files && <p className="field-error">{errors.files}</p>}
        </div>
      )}
      {mode.kind === 'reply' && (
        <label className="mail-check">
          <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Responder a todos
        </label>
      )}
      <label className="mail-check">
        <input type="checkbox" checked={track} onChange={(e) => setTrackChoice(e.target.checked)} /> Seguimiento de aperturas y clics
      </label>
      {warning && (
        <div className="alert-warning mail-unresolved" role="alert">
          <p>{warning}</p>
          <Button small variant="secondary" disabled={sending} onClick={() => void submit(true)}>
            Enviar de todos modos
          </Button>
        </div>
      )}
      {failure && (
        <p className="alert-warning" role="alert">
          {failure}
        </p>
      )}
    </Modal>
  );
}

/** 128 random bits in hex: `crypto.randomUUID` exists only on https or localhost, and self-hosters open plain http. */
function randomKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
