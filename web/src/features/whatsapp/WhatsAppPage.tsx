import { useState } from 'react';
import { PageHeader } from '../../ui/PageHeader';
import type { Conversation } from './api';
import { AssistantTester, AutoReplySettings, ChatAssistantControl, VariableValues } from './assistant';
import { AutoRepliesView } from './AutoRepliesView';
import { ChatDrawer } from './ChatDrawer';
import { CloudApiCard } from './CloudApiCard';
import { ConnectionCard } from './ConnectionCard';
import { ConversationsView } from './ConversationsView';
import { HealthPanel } from './HealthPanel';
import { PhoneFold } from './phone-fold';
import { PromptsTab } from './PromptsTab';
import { StatCards } from './StatCards';
import { StatsTab } from './StatsTab';
import { useConnection } from './use-connection';
import { useStats } from './use-stats';
import './whatsapp.css';

/** The conversations first and open at first: they are what the owner comes to this screen for. */
const TABS = [
  { id: 'conversations', label: 'Conversaciones' },
  { id: 'prompts', label: 'Prompts IA' },
  { id: 'stats', label: 'Estadísticas' },
  { id: 'auto-replies', label: 'Respuestas automáticas' },
] as const;
type TabId = (typeof TABS)[number]['id'];

export function WhatsAppPage() {
  const [version, setVersion] = useState(0);
  const refresh = () => setVersion((v) => v + 1);
  const connection = useConnection(refresh);
  const { stats, failed: statsFailed } = useStats(version);
  const [tab, setTab] = useState<TabId>('conversations');
  const [open, setOpen] = useState<Conversation | null>(null);

  return (
    <div className="wa-page">
      <PageHeader title="WhatsApp Business" subtitle="Mensajes, respuestas automáticas y asistente IA" />
      <div className="wa-top">
        <ConnectionCard connection={connection} />
        <HealthPanel version={`${version}-${connection.status?.state ?? ''}`} />
      </div>
      <CloudApiCard status={connection.status} onChanged={() => void connection.reload()} />
      <StatCards stats={stats} failed={statsFailed} />
      <div className="wa-tabs" role="tablist" aria-label="Secciones de WhatsApp">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`wa-tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`wa-panel-${t.id}`}
            className={tab === t.id ? 'wa-tab is-active' : 'wa-tab'}
            onClick={() => {
              setTab(t.id);
              if (t.id === 'stats' || t.id === 'conversations') refresh();
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`wa-panel-${tab}`} aria-labelledby={`wa-tab-${tab}`}>
        {tab === 'prompts' && (
          <PromptsTab>
            <PhoneFold title="Valores de las variables">
              <VariableValues />
            </PhoneFold>
            <PhoneFold title="Respuestas automáticas con IA">
              <AutoReplySettings />
            </PhoneFold>
            <PhoneFold title="Probar el asistente">
              <AssistantTester />
            </PhoneFold>
          </PromptsTab>
        )}
        {tab === 'stats' && <StatsTab stats={stats} failed={statsFailed} />}
        {tab === 'conversations' && <ConversationsView onOpen={setOpen} version={version} />}
        {tab === 'auto-replies' && <AutoRepliesView />}
      </div>
      {open && (
        <ChatDrawer
          key={open.id}
          conversation={open}
          cloud={connection.status?.provider === 'cloud'}
          headerExtra={<ChatAssistantControl jid={open.id} />}
          onClose={() => {
            setOpen(null);
            refresh();
          }}
        />
      )}
    </div>
  );
}
