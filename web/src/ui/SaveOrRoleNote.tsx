import { Button } from './Button';
import { RoleNote } from './RoleNote';

/** A form's submit for a role that may change what it shows; for one that may not, the note saying why it is missing. */
export function SaveOrRoleNote({ editable, saving, label = 'Guardar' }: { editable: boolean; saving: boolean; label?: string }) {
  if (!editable) return <RoleNote />;
  return (
    <div className="form-actions">
      <Button type="submit" disabled={saving}>
        {saving ? 'Guardando...' : label}
      </Button>
    </div>
  );
}
