import { useState } from 'react';
import { errorMessage } from '../lib/errors';
import { toast } from '../lib/toasts';
import { switchWorkspace, useWorkspaceChoice } from '../lib/workspaces';

/** The sidebar's "Espacio de trabajo" select, for a person who belongs to more than one. */
export function WorkspaceSwitcher() {
  const choice = useWorkspaceChoice();
  const [switching, setSwitching] = useState(false);
  if (!choice) return null;

  const choose = async (workspaceId: string) => {
    if (workspaceId === choice.currentId) return;
    setSwitching(true);
    try {
      // Succeeds by leaving the page: the app loads again in the chosen workspace.
      await switchWorkspace(workspaceId);
    } catch (err) {
      toast.error(errorMessage(err));
      setSwitching(false);
    }
  };

  return (
    <div className="workspace-switcher">
      <label htmlFor="espacio-de-trabajo">Espacio de trabajo</label>
      <select id="espacio-de-trabajo" value={choice.currentId} disabled={switching} onChange={(e) => void choose(e.target.value)}>
        {choice.workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
      </select>
    </div>
  );
}
