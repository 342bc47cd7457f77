import { roleAllows, type WorkspaceRole } from '@asistente/contracts';

/**
 * Which of Configuración's cards and controls a role gets: the contracts' role table (the one the gateway and
 * the services apply), asked with the calls each card makes.
 */
export function settingsPermissions(role: WorkspaceRole) {
  return {
    // The card is for managing endpoints: without changing them, listing them serves nothing.
    webhooks: roleAllows(role, 'GET', '/webhooks') && roleAllows(role, 'POST', '/webhooks'),
    // Creating the website's chat and changing it: the owner's and the admins' (the role table's /widget rule).
    webWidget: roleAllows(role, 'GET', '/widget') && roleAllows(role, 'POST', '/widget') && roleAllows(role, 'PATCH', '/widget'),
    securityActivity: roleAllows(role, 'GET', '/account/activity'),
    retention: roleAllows(role, 'GET', '/account/retention'),
    changeRetention: roleAllows(role, 'PUT', '/account/retention'),
    inboxRules: roleAllows(role, 'GET', '/conversations/settings'),
    changeInboxRules: roleAllows(role, 'PATCH', '/conversations/settings'),
    // Started by a POST, then followed and downloaded by GETs: the card needs them all.
    exportData: roleAllows(role, 'POST', '/account/export') && roleAllows(role, 'GET', '/account/export/:id/download'),
    // The archive holds the workspace's shared data for whoever may read the services' pages of it (the owner);
    // any other member's holds their own data only.
    exportWorkspace: roleAllows(role, 'GET', '/contacts/account-export'),
    // Every member's own account (it leaves the others' workspaces; the server refuses, with the reason, an
    // owner whose workspace still has other members).
    deleteAccount: roleAllows(role, 'POST', '/account/delete'),
  };
}
