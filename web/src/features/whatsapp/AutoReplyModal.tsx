import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import type { AutoReply } from './api';

export interface NewAutoReply {
  keyword: string;
  response: string;
  active: boolean;
}

/** Client-side rules, the server's in the same words: both required after trimming, keyword unique ignoring case. */
export function autoReplyProblem(draft: NewAutoReply, existing: readonly AutoReply[]): string | null {
  const keyword = draft.keyword.trim();
  if (!keyword || !draft.response.trim()) return 'Completa palabra clave y respuesta';
  const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  if (existing.some((r) => fold(r.keyword) === fold(keyword))) return 'Ya existe una respuesta con esa palabra clave';
  return null;
}

interface Props {
  existing: readonly AutoReply[];
  onCreate: (draft: NewAutoReply) => void;
  onClose: () => void;
}

/** The new auto-reply modal: keyword, response, active. Creating is optimistic (the list handles it). */
export function AutoReplyModal({ existing, onCreate, onClose }: Props) {
  const [draft, setDraft] = useState<NewAutoReply>({ keyword: '', response: '', active: true });
  const [problem, setProblem] = useState<string | null>(null);
  const dirty = draft.keyword !== '' || draft.response !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = autoReplyProblem(draft, existing);
    if (found) {
      setProblem(found);
      return;
    }
    onCreate({ keyword: draft.keyword.trim(), response: draft.response.trim(), active: draft.active });
  };

  return (
    <Modal
      title="Nueva respuesta automática"
      onClose={onClose}
      dirty={dirty}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit" form="wa-auto-reply-form">
            Crear respuesta
          </Button>
        </>
      }
    >
      <form id="wa-auto-reply-form" onSubmit={submit} noValidate>
        {problem && <FormError message={problem} />}
        <TextField
          label="Palabra clave"
          placeholder="precio"
          maxLength={100}
          value={draft.keyword}
          onInput={(e) => setDraft({ ...draft, keyword: e.currentTarget.value })}
          hint="Responde cuando el mensaje contiene esta palabra completa, sin importar mayúsculas ni acentos."
        />
        <div className="field">
          <label htmlFor="wa-auto-reply-response">Respuesta</label>
          <textarea
            id="wa-auto-reply-response"
            rows={4}
            maxLength={4096}
            value={draft.response}
            onInput={(e) => setDraft({ ...draft, response: e.currentTarget.value })}
          />
        </div>
        <label className="wa-check">
          <input type="checkbox" checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.currentTarget.checked })} />
          Activa
        </label>
      </form>
    </Modal>
  );
}
