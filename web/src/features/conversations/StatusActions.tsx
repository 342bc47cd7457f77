import { Button } from '../../ui/Button';
import type { InboxConversation } from './api';

type Status = InboxConversation['status'];

/** What can happen next to a conversation in each status. */
const NEXT: Record<Status, { to: Status; label: string }[]> = {
  open: [
    { to: 'pending', label: 'Pendiente' },
    { to: 'resolved', label: 'Resolver' },
  ],
  pending: [
    { to: 'open', label: 'Reabrir' },
    { to: 'resolved', label: 'Resolver' },
  ],
  resolved: [{ to: 'open', label: 'Reabrir' }],
};

export function StatusActions({ status, disabled, onChange }: { status: Status; disabled: boolean; onChange: (status: Status) => void }) {
  return (
    <div className="inbox-status-actions" role="group" aria-label="Estado de la conversación">
      {NEXT[status].map((next) => (
        <Button key={next.to} variant={next.to === 'resolved' ? 'primary' : 'secondary'} small disabled={disabled} onClick={() => onChange(next.to)}>
          {next.label}
        </Button>
      ))}
    </div>
  );
}
