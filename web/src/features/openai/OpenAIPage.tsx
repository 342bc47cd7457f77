import { ComingSoon } from '../../ui/ComingSoon';

export function OpenAIPage() {
  return (
    <ComingSoon
      title="OpenAI API Key"
      subtitle="La clave que usa tu asistente IA"
      icon="key"
      description="Aquí guardarás tu API key de OpenAI. Se almacena cifrada con AES-256-GCM en el servidor y solo se muestran sus últimos 4 caracteres."
    />
  );
}
