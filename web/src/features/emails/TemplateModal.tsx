import { useState } from 'react';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';
import { createTemplate } from './api';
import { unknownVariables } from './variables';

/** A new template; the assistant's variables ({nombre_cliente}…) are filled when it is used for a contact. */
export function TemplateModal({ onClose, onSaved }: { onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // Flagged while typing: a send would leave them as written (and ask first), so the owner fixes them here.
  const unknown = unknownVariables(subject, body);

  const save = async () => {
    if (!name.trim() || !subject.trim() || !body.trim()) {
      setError('Nombre, asunto y mensaje son requeridos');
      return;
    }
    setSaving(true);
    try {
      await createTemplate({ name: name.trim(), subject, body });
      toast.success('Plantilla guardada');
      onSaved();
    } catch (err) {
      setError(errorMessage(err));
      setSaving(false);
    }
  };

  return (
    <Modal
      title="Nueva plantilla"
      onClose={onClose}
      dirty={Boolean(name || subject || body) && !saving}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button disabled={saving} onClick={() => void save()}>
            {saving ? 'Guardando...' : 'Guardar plantilla'}
          </Button>
        </>
      }
    >
      <TextField label="Nombre" value={name} onChange={(e) => setName(e.target.value)} />
      <TextField label="Asunto" value={subject} onChange={(e) => setSubject(e.target.value)} />
      <div className="field">
        <label htmlFor="template-body">Mensaje</label>
        <textarea id="template-body" rows={7} value={body} onChange={(e) => setBody(e.target.value)} />
        <p className="field-hint">
          Variables: {'{nombre_cliente}'}, {'{nombre}'}, {'{apellido}'}, {'{empresa}'}, {'{correo}'}, {'{telefono}'}. Se rellenan al enviar con los
          datos de cada destinatario en Contactos.
        </p>
        {unknown.length > 0 && (
          <p className="field-error" role="status">
            {unknown.length === 1
              ? `Variable desconocida: ${unknown[0]}. Ningún contacto la rellena: se quedaría sin completar al enviar.`
              : `Variables desconocidas: ${unknown.join(', ')}. Ningún contacto las rellena: se quedarían sin completar al enviar.`}
          </p>
        )}
      </div>
      {error && (
        <p className="alert-warning" role="alert">
          {error}
        </p>
      )}
    </Modal>
  );
}
