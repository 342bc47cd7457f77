import type { InboxMember } from './api';

interface AssigneeSelectProps {
  id: string;
  assigneeId: string | null;
  members: InboxMember[] | null;
  myId: string;
  /** The assignee's name when the members could not load (the select still shows who has it). */
  assigneeName: string | null;
  disabled: boolean;
  onChange: (assigneeId: string | null) => void;
}

const NONE = '';

/** «Sin asignar» and every member (me marked, an absent one said so). */
export function AssigneeSelect({ id, assigneeId, members, myId, assigneeName, disabled, onChange }: AssigneeSelectProps) {
  const listed = members ?? [];
  const unknown = assigneeId !== null && !listed.some((m) => m.userId === assigneeId);
  return (
    <div className="field inbox-assignee">
      <label htmlFor={id}>Asignada a</label>
      <select id={id} value={assigneeId ?? NONE} disabled={disabled || members === null} onChange={(e) => onChange(e.target.value === NONE ? null : e.target.value)}>
        <option value={NONE}>Sin asignar</option>
        {unknown && <option value={assigneeId}>{assigneeName ?? 'Otra persona'}</option>}
        {listed.map((m) => (
          <option key={m.userId} value={m.userId}>
            {m.name}
            {m.userId === myId ? ' (tú)' : ''}
            {m.available ? '' : ' (ausente)'}
          </option>
        ))}
      </select>
    </div>
  );
}
