import { accountExportRoutes } from '@asistente/contracts';
import { accountExportRoute, authPlugin, registerUserErasure, requireAuth, type App, type ServicePlugin } from '@asistente/kit';
import { contactsExportParts } from './domain/account-export.js';
import { AccountExportRepository } from './domain/account-export.repository.js';
import { ContactTimeline } from './domain/contact-timeline.js';
import { ContactsBulk } from './domain/contacts-bulk.js';
import { ContactsImporter } from './domain/contacts-importer.js';
import { ContactsMerge } from './domain/contacts-merge.js';
import { ContactsRepository } from './domain/contacts.repository.js';
import { ContactsService } from './domain/contacts.service.js';
import { SavedViews } from './domain/saved-views.js';
import { bulkRoutes } from './routes/bulk.js';
import { contactRoutes } from './routes/contacts.js';
import { importExportRoutes } from './routes/import-export.js';
import { importPreviewRoutes } from './routes/import-preview.js';
import { personRoutes } from './routes/person.js';
import { viewRoutes } from './routes/views.js';
import { settings } from './settings.js';

/** The contacts service as a plugin: mounted by the embedded gateway or booted alone by server.ts. */
const contactsService: ServicePlugin = async (fastify, { platform }) => {
  const app = fastify as unknown as App;
  await app.register(authPlugin, { tokens: platform.tokens, revocations: platform.revocations });
  requireAuth(app);
  const outbox = platform.outbox('contacts');
  const repository = new ContactsRepository(platform.db.sql);
  await contactRoutes(app, { contacts: new ContactsService(platform.db.sql, repository, outbox) });
  await bulkRoutes(app, { bulk: new ContactsBulk(platform.db.sql, repository, outbox) });
  await personRoutes(app, {
    merge: new ContactsMerge(platform.db.sql, outbox),
    timeline: new ContactTimeline(platform.services, platform.log),
  });
  await importExportRoutes(app, {
    importer: new ContactsImporter(platform.db, outbox, platform.log),
    repository,
    maxUploadBytes: platform.settings(settings).CONTACTS_IMPORT_MAX_BYTES,
  });
  await importPreviewRoutes(app);
  await viewRoutes(app, { views: new SavedViews(platform.db.sql) });
  // "Eliminar mi cuenta": contacts, trash, saved views and counts (every user_id table of the schema).
  await registerUserErasure(platform, { service: 'contacts' });
  accountExportRoute(app, accountExportRoutes.contacts, contactsExportParts(new AccountExportRepository(platform.db.sql)));
};

export default contactsService;
export { insertBackdatedContacts, type DatedContact } from './domain/backdated-contacts.js';
export { settings } from './settings.js';
