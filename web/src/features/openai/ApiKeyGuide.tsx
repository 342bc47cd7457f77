import { AI_MODELS, type AiModel } from '@asistente/contracts';
import { useId } from 'react';
import { formatUsd, TYPICAL_MONTH, typicalMonthUsd } from './monthly-cost';

const count = new Intl.NumberFormat('es-ES');

/**
 * What an owner needs before pasting a key: what it is, where to get one, what it costs a month with the
 * model the assistant uses (from the shared price table), and that it is kept encrypted.
 */
export function ApiKeyGuide({ model }: { model: AiModel | null }) {
  const titleId = useId();
  return (
    <section className="card api-key-guide" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        ¿Qué es una API key y para qué sirve?
      </h2>
      <p>
        Es una clave personal que da permiso a Mi Asistente.IA para usar la inteligencia artificial de OpenAI en tu nombre: con
        ella el asistente redacta las respuestas automáticas de WhatsApp. OpenAI te cobra directamente lo que se use, en tu
        propia cuenta.
      </p>
      <h3>Cómo conseguirla</h3>
      <ol>
        <li>
          Entra en{' '}
          <a href="https://platform.openai.com/api-keys" target="_blank" rel="noreferrer noopener">
            platform.openai.com
          </a>{' '}
          con tu cuenta de OpenAI (o crea una) y añade un método de pago en «Billing».
        </li>
        <li>Abre «API keys» y pulsa «Create new secret key».</li>
        <li>Copia la clave (empieza por «sk-»; OpenAI solo la muestra una vez) y pégala en «Configurar API key», arriba.</li>
      </ol>
      <h3>Cuánto cuesta</h3>
      <p>
        {model ? (
          <>
            Con el modelo que usa tu asistente, <strong>{model}</strong>, unas {count.format(TYPICAL_MONTH.answers)} respuestas
            automáticas al mes cuestan alrededor de <strong>{formatUsd(typicalMonthUsd(model))}</strong>.
          </>
        ) : (
          <>Lo que cuesta un mes depende del modelo que elijas en WhatsApp → Prompts IA:</>
        )}
      </p>
      <ul className="api-key-guide-prices">
        {AI_MODELS.map((choice) => (
          <li key={choice}>
            {choice}: ~{formatUsd(typicalMonthUsd(choice))} al mes{choice === model ? ' (el tuyo)' : ''}
          </li>
        ))}
      </ul>
      <p className="field-hint">
        Cálculo con los precios de OpenAI, suponiendo {count.format(TYPICAL_MONTH.answers)} respuestas al mes que leen unos{' '}
        {count.format(TYPICAL_MONTH.inputTokens)} tokens (tus instrucciones, la conversación y lo que consultan) y escriben unos{' '}
        {count.format(TYPICAL_MONTH.outputTokens)} (una respuesta breve). Conversaciones largas cuestan más. Puedes poner un
        presupuesto diario máximo en WhatsApp → Prompts IA.
      </p>
      <h3>Tu clave está protegida</h3>
      <p>
        Se guarda cifrada en el servidor y nunca se vuelve a mostrar entera: aquí solo verás sus últimos 4 caracteres. Puedes
        eliminarla cuando quieras, y también revocarla en platform.openai.com.
      </p>
    </section>
  );
}
