import { useState, type FormEvent } from 'react';
import type { Workspace } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { toast } from '../../lib/toasts';
import { workspaceRenamed } from '../../lib/workspaces';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/TextField';
import { renameWorkspace } from './team';

/** The workspace's name: a field with "Guardar" for those who may rename it, plain text for the rest. */
export function WorkspaceName({ workspace, editable, onRenamed }: { workspace: Workspace; editable: boolean; onRenamed: (workspace: Workspace) => void }) {
  if (!editable) {
    return (
      <p className="team-workspace">
        <span className="muted">Espacio de trabajo:</span> <strong>{workspace.name}</strong>
      </p>
    );
  }
  return <RenameForm workspace={workspace} onRenamed={onRenamed} />;
}

function RenameForm({ workspace, onRenamed }: { workspace: Workspace; onRenamed: (workspace: Workspace) => void }) {
  const [name, setName] = useState(workspace.name);
  const [error, setError] = useState<string | undefined>(undefined);
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = name.trim();
    setError(trimmed ? undefined : 'El nombre del espacio de trabajo es requerido');
    if (!trimmed) return;
    setSaving(true);
    setServerError(null);
    try {
      const saved = await renameWorkspace(trimmed);
      setName(saved.name);
      onRenamed(saved);
      workspaceRenamed(saved);
      toast.success('Nombre guardado');
    } catch (err) {
      setServerError(errorMessage(err));
    }
    setSaving(false);
  }

  return (
    <form className="team-name-form" onSubmit={(event) => void submit(event)} noValidate>
      <TextField
        label="Nombre del espacio de trabajo"
        value={name}
        maxLength={120}
        autoComplete="organization"
        error={error}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <Button type="submit" disabled={saving}>
        {saving ? 'Guardando...' : 'Guardar'}
      </Button>
      <FormError message={serverError} />
    </form>
  );
}
