import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button';
import { Modal } from '../../ui/Modal';
import { TextField } from '../../ui/TextField';

interface BulkTagDialogProps {
  count: number;
  tags: string[];
  onApply: (change: { add?: string[]; remove?: string[] }) => void;
  onClose: () => void;
}

/** One tag added to, or removed from, every selected contact. */
export function BulkTagDialog({ count, tags, onApply, onClose }: BulkTagDialogProps) {
  const listId = useId();
  const [tag, setTag] = useState('');
  const [error, setError] = useState<string | null>(null);
  const clean = tag.trim();

  const apply = (mode: 'add' | 'remove') => {
    if (!clean) return setError('Escribe una etiqueta');
    if (clean.length > 50) return setError('Cada etiqueta admite como máximo 50 caracteres');
    onApply(mode === 'add' ? { add: [clean] } : { remove: [clean] });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    apply('add');
  };

  return (
    <Modal title={count === 1 ? 'Etiquetar 1 contacto' : `Etiquetar ${count.toLocaleString('es-ES')} contactos`} onClose={onClose}>
      <form onSubmit={onSubmit}>
        <TextField
          label="Etiqueta"
          list={listId}
          value={tag}
          maxLength={50}
          error={error ?? undefined}
          onInput={(e) => {
            setTag(e.currentTarget.value);
            setError(null);
          }}
        />
        <datalist id={listId}>
          {tags.map((t) => (
            <option key={t} value={t} />
          ))}
        </datalist>
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button variant="secondary" onClick={() => apply('remove')}>
            Quitar etiqueta
          </Button>
          <Button type="submit">Añadir etiqueta</Button>
        </div>
      </form>
    </Modal>
  );
}
