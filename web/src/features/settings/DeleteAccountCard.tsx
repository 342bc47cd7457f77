import { useEffect, useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import type { AccountDeletionProgress } from '@asistente/contracts';
import type { AccountDeleted } from '../../lib/account-deletion';
import { errorMessage } from '../../lib/errors';
import { clearSession, forgetToken } from '../../lib/session-state';
import { dismissAllToasts, toast } from '../../lib/toasts';
import { Button } from '../../ui/Button';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { PasswordField } from '../../ui/PasswordField';
import { deleteAccount, DELETION_POLL_MS, fetchDeletion } from './account-deletion';
import { DeletionProgress } from './DeletionProgress';
import './delete-account.css';

/**
 * Configuración → "Eliminar mi cuenta": what goes, the password again, a confirmation, then each service's
 * progress; when everything is erased, the login page says so. `canExport`: the role may take a copy first
 * ("Descargar mis datos" is on the page), so the card points to it.
 */
export function DeleteAccountCard({ canExport }: { canExport: boolean }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [deletionId, setDeletionId] = useState<string | null>(null);
  const [progress, setProgress] = useState<AccountDeletionProgress | null>(null);
  /** Bumped by a failed read, so the next one is asked (the server may be restarting). */
  const [attempt, setAttempt] = useState(0);
  const [, navigate] = useLocation();

  // While the services erase, their progress is asked again; once done, the session ends on the login page.
  useEffect(() => {
    if (!deletionId) return;
    if (progress?.status === 'done') {
      const timer = setTimeout(() => {
        clearSession();
        // The login page says goodbye alone: a refusal raised on the way (a mistyped password) is over.
        dismissAllToasts();
        const state: AccountDeleted = { accountDeleted: true };
        navigate('/login', { replace: true, state });
      }, DELETION_POLL_MS);
      return () => clearTimeout(timer);
    }
    const timer = setTimeout(() => {
      fetchDeletion(deletionId)
        .then(setProgress)
        .catch(() => setAttempt((n) => n + 1));
    }, progress || attempt > 0 ? DELETION_POLL_MS : 0);
    return () => clearTimeout(timer);
  }, [deletionId, progress, attempt, navigate]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError('Escribe tu contraseña para eliminar la cuenta');
      return;
    }
    setConfirming(true);
  };

  const onConfirm = async () => {
    setBusy(true);
    try {
      const { id } = await deleteAccount(password);
      // The token is dead everywhere from this moment: forgotten now, the screen stays for the progress.
      forgetToken();
      setConfirming(false);
      setDeletionId(id);
    } catch (err) {
      setConfirming(false);
      const message = errorMessage(err);
      setError(message);
      toast.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card delete-account" aria-labelledby="eliminar-cuenta">
      <h2 id="eliminar-cuenta" className="card-title">
        Eliminar mi cuenta
      </h2>
      {deletionId ? (
        <DeletionProgress progress={progress} />
      ) : (
        <>
          <p>Se borrará para siempre, en todos los servicios, y no se puede deshacer:</p>
          <ul className="delete-account-list">
            <li>Tu perfil, tus sesiones, tus tokens de acceso y tu actividad de seguridad.</li>
            <li>Tus contactos, la papelera y las vistas guardadas.</li>
            <li>WhatsApp: chats, mensajes, respuestas automáticas y la vinculación del teléfono (se cierra la sesión).</li>
            <li>Correo: cuentas, mensajes, plantillas y envíos; se cierran las conexiones y se revoca el acceso a Gmail.</li>
            <li>Calendario y Teams: eventos y reuniones guardados; se revoca el acceso a Google y se borran los tokens de Microsoft.</li>
            <li>El asistente IA (configuración, clave de OpenAI y ejecuciones), las estadísticas y los webhooks.</li>
          </ul>
          <p>Los espacios de trabajo de otras personas a los que perteneces no se borran: solo dejas de formar parte de ellos.</p>
          {canExport && <p className="muted">Si quieres conservar una copia, usa antes «Descargar mis datos».</p>}
          <form onSubmit={onSubmit} noValidate>
            <PasswordField
              label="Tu contraseña, para confirmar"
              autoComplete="current-password"
              value={password}
              error={error}
              onInput={(e) => {
                setError(undefined);
                setPassword(e.currentTarget.value);
              }}
            />
            <div className="form-actions">
              <Button type="submit" variant="danger">
                Eliminar mi cuenta
              </Button>
            </div>
          </form>
        </>
      )}
      {confirming && (
        <ConfirmDialog
          title="¿Eliminar tu cuenta?"
          message="Tu cuenta y todos sus datos se borrarán en todos los servicios y se cerrarán tus conexiones con WhatsApp, Google y Microsoft. No se puede deshacer."
          confirmLabel={busy ? 'Eliminando…' : 'Sí, eliminar mi cuenta'}
          busy={busy}
          onConfirm={onConfirm}
          onCancel={() => setConfirming(false)}
        />
      )}
    </section>
  );
}
