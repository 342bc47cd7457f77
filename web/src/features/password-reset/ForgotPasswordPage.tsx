import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { errorMessage } from '../../lib/errors';
import { AuthLayout } from '../../ui/AuthLayout';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/TextField';
import { useForm } from '../../ui/use-form';
import { requestResetLink, resetByMailAvailable } from './api';
import { validateForgot } from './validate';
import '../../ui/auth-forms.css';

/** What the server can do: mail a link, or not (no SMTP_URL); unknown while asking. */
type Availability = 'checking' | 'mail' | 'administrator';

/** The whole command, as typed in the folder where Mi Asistente.IA was installed (the embedded data folder). */
const RESET_COMMAND = 'npx asistente admin reset-password <correo> --data-dir ./data';

/** Shown when the server has no mailer: the owner cannot get a link by mail, only from whoever runs the server. */
function AskTheAdministrator() {
  return (
    <div className="form-notice form-notice-info" role="status">
      <p>Este servidor no tiene configurado el envío de correos, así que no podemos mandarte un enlace.</p>
      <p>
        Pide al administrador de Mi Asistente.IA que te genere un enlace para restablecer la contraseña. Con el servidor
        parado, en la carpeta donde está instalado, solo tiene que ejecutar:
      </p>
      <pre className="form-notice-command">
        <code>{RESET_COMMAND}</code>
      </pre>
      <p>
        poniendo tu correo en lugar de <code>&lt;correo&gt;</code>. Con PostgreSQL, en lugar de <code>--data-dir ./data</code>{' '}
        va <code>--database-url</code> con la dirección de la base de datos, y no hace falta parar el servidor.
      </p>
    </div>
  );
}

export function ForgotPasswordPage() {
  const { formRef, values, bind, check } = useForm({ email: '' }, validateForgot);
  const [availability, setAvailability] = useState<Availability>('checking');
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  useEffect(() => {
    let live = true;
    // If the question fails, offer the form: the request itself will then say what is wrong.
    resetByMailAvailable()
      .then((available) => live && setAvailability(available ? 'mail' : 'administrator'))
      .catch(() => live && setAvailability('mail'));
    return () => {
      live = false;
    };
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!check()) return;
    setWaiting(true);
    try {
      setSent((await requestResetLink(values.email.trim())).message);
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setWaiting(false);
    }
  };

  const email = bind('email');
  return (
    <AuthLayout
      title="¿Olvidaste tu contraseña?"
      subtitle="Te ayudamos a elegir una nueva"
      footer={
        <>
          ¿La recordaste? <Link href="/login">Inicia sesión</Link>
        </>
      }
    >
      {availability === 'checking' && (
        <p className="muted" role="status">
          Cargando...
        </p>
      )}
      {availability === 'administrator' && <AskTheAdministrator />}
      {availability === 'mail' && sent !== null && (
        <div className="form-notice" role="status">
          <p>{sent}</p>
          <p>El enlace vale 30 minutos y solo se puede usar una vez. Si no lo ves en unos minutos, mira en la carpeta de correo no deseado.</p>
        </div>
      )}
      {availability === 'mail' && sent === null && (
        <form ref={formRef} onSubmit={onSubmit} noValidate>
          <p className="field-hint">Escribe el correo con el que entras y te enviaremos un enlace para elegir una contraseña nueva.</p>
          <TextField
            label="Correo electrónico"
            type="email"
            autoComplete="email"
            placeholder="tu@empresa.com"
            {...email}
            onInput={(e) => {
              setFailure(null);
              email.onInput(e);
            }}
          />
          <Button type="submit" className="btn-block" disabled={waiting}>
            {waiting ? 'Enviando...' : 'Enviar enlace'}
          </Button>
          <FormError message={failure} />
        </form>
      )}
    </AuthLayout>
  );
}
