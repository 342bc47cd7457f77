import { ComingSoon } from '../../ui/ComingSoon';

export function EmailsPage() {
  return (
    <ComingSoon
      title="Correos"
      subtitle="Tu bandeja de Gmail, Outlook o IMAP/SMTP"
      icon="mail"
      description="Aquí leerás y redactarás correos desde Gmail, Outlook o cualquier cuenta IMAP/SMTP, con carpetas, plantillas y adjuntos."
    />
  );
}
