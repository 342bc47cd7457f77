import type { MailFolder } from './api';

export const MAIL_FOLDERS_ORDER: MailFolder[] = ['inbox', 'sent', 'drafts', 'trash'];
