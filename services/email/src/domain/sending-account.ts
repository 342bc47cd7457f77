import { badRequest, notFound } from '@asistente/kit';
import type { AccountRow } from './account.js';
import type { AccountsRepository } from './accounts.repository.js';

/** The owner's account asked for (404 when it is someone else's), or their first one. */
export async function sendingAccount(accounts: AccountsRepository, userId: string, accountId: string | undefined): Promise<AccountRow> {
  if (accountId) {
    const chosen = await accounts.byId(accountId);
    if (!chosen || chosen.userId !== userId) throw notFound('Cuenta de correo no encontrada');
    return chosen;
  }
  const [first] = await accounts.list(userId);
  if (!first) throw badRequest('Conecta una cuenta de correo antes de enviar', 'NO_MAIL_ACCOUNT');
  return first;
}
