import type { AssigneeTab, InboxCounts } from './api';

export const TAB_PANEL_ID = 'bandeja-lista';
const tabId = (tab: AssigneeTab) => `bandeja-tab-${tab}`;

const TABS: { value: AssigneeTab; label: string; count: keyof InboxCounts }[] = [
  { value: 'me', label: 'Mías', count: 'mine' },
  { value: 'none', label: 'Sin asignar', count: 'unassigned' },
  { value: 'any', label: 'Todas', count: 'all' },
];

export const activeTabId = tabId;

/** «Mías», «Sin asignar», «Todas», each with how many conversations the status filter leaves in it. */
export function InboxTabs({ tab, counts, onTab }: { tab: AssigneeTab; counts: InboxCounts | null; onTab: (tab: AssigneeTab) => void }) {
  return (
    <div className="inbox-tabs" role="tablist" aria-label="Conversaciones por persona asignada">
      {TABS.map((t) => (
        <button
          key={t.value}
          type="button"
          role="tab"
          id={tabId(t.value)}
          aria-selected={tab === t.value}
          aria-controls={TAB_PANEL_ID}
          className={tab === t.value ? 'inbox-tab is-active' : 'inbox-tab'}
          onClick={() => onTab(t.value)}
        >
          {t.label}{' '}
          <span className="inbox-tab-count">{counts ? counts[t.count] : '–'}</span>
        </button>
      ))}
    </div>
  );
}
