import { ComingSoon } from '../../ui/ComingSoon';

export function WhatsAppPage() {
  return (
    <ComingSoon
      title="WhatsApp Business"
      subtitle="Mensajes, respuestas automáticas y asistente IA"
      icon="message"
      description="Aquí conectarás tu WhatsApp Business con un código QR, verás tus conversaciones y configurarás el asistente IA y las respuestas automáticas."
    />
  );
}
