import { useState } from 'react';
import { useSession } from '../../lib/session-state';
import { usePermissions } from '../../lib/workspace-roles';
import { PageHeader } from '../../ui/PageHeader';
import { AccountExportCard } from './AccountExportCard';
import { ApiAccessCard } from './ApiAccessCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { InboxRulesCard } from './InboxRulesCard';
import { IntegrationsCard } from './IntegrationsCard';
import { PasswordForm } from './PasswordForm';
import { settingsPermissions } from './permissions';
import { PersonalTokensCard } from './PersonalTokensCard';
import { ProfileForm } from './ProfileForm';
import { RetentionCard } from './RetentionCard';
import { SecurityActivityCard } from './SecurityActivityCard';
import { TeamCard } from './TeamCard';
import { WebhooksCard } from './WebhooksCard';
import { WebWidgetCard } from './WebWidgetCard';
import './settings.css';

export function SettingsPage() {
  const { user } = useSession();
  // A new password revokes every personal token: the tokens card is drawn again from the server's list.
  const [passwordChanges, setPasswordChanges] = useState(0);
  // A card whose calls the role table refuses is not drawn at all; until the role is known, none of them is.
  const can = usePermissions(settingsPermissions);
  if (!user) return null;
  return (
    <>
      <PageHeader title="Configuración" subtitle="Administra tu perfil, tu contraseña y tus integraciones" />
      <div className="settings-grid">
        <ProfileForm user={user} />
        <PasswordForm onChanged={() => setPasswordChanges((n) => n + 1)} />
      </div>
      <TeamCard />
      <IntegrationsCard />
      <PersonalTokensCard key={passwordChanges} />
      <ApiAccessCard />
      {can?.webhooks && <WebhooksCard />}
      {can?.webWidget && <WebWidgetCard />}
      {can?.securityActivity && <SecurityActivityCard />}
      {can?.inboxRules && <InboxRulesCard editable={can.changeInboxRules} />}
      {can?.retention && <RetentionCard editable={can.changeRetention} />}
      {can?.exportData && <AccountExportCard workspace={can.exportWorkspace} />}
      {can?.deleteAccount && <DeleteAccountCard canExport={can.exportData} />}
    </>
  );
}
