import type { AiRunResult } from '@asistente/contracts';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/errors';
import { Button } from '../../../ui/Button';
import { runAssistant } from './api';
import { formatTokens, formatUsd } from './format';
import './assistant.css';

/** "Probar asistente": a question, the answer, the tools the assistant used, the tokens and what it cost. */
export function AssistantTester() {
  const titleId = useId();
  const questionId = useId();
  const [question, setQuestion] = useState('');
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<AiRunResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const message = question.trim();
    if (!message) return setError('Escribe un mensaje para el asistente');
    setRunning(true);
    setError(null);
    setResult(null);
    try {
      setResult(await runAssistant({ message, dryRun: true }));
    } catch (err) {
      console.error('El asistente no pudo responder', err);
      setError(errorMessage(err));
    } finally {
      setRunning(false);
    }
  };

  return (
    <section className="card assistant-tester" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Probar asistente
      </h2>
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={questionId}>Pregunta</label>
          <textarea
            id={questionId}
            maxLength={4000}
            placeholder="Por ejemplo: ¿qué reuniones tengo mañana?"
            value={question}
            onInput={(e) => setQuestion(e.currentTarget.value)}
          />
        </div>
        <div className="form-actions">
          <Button type="submit" disabled={running}>
            {running ? 'Pensando...' : 'Probar asistente'}
          </Button>
        </div>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div aria-live="polite">
          <p className="assistant-answer">{result.answer || 'El asistente no devolvió texto.'}</p>
          <div className="assistant-figures">
            <span>Modelo: {result.model}</span>
            <span>Tokens: {formatTokens(result.usage.totalTokens)} ({formatTokens(result.usage.promptTokens)} de entrada, {formatTokens(result.usage.completionTokens)} de salida)</span>
            <span>Coste: {formatUsd(result.costUsd)}</span>
          </div>
          {result.toolCalls.length === 0 ? (
            <p className="muted">No usó herramientas.</p>
          ) : (
            <>
              <p className="muted">Herramientas usadas:</p>
              <ul className="assistant-tools">
                {result.toolCalls.map((call, index) => (
                  <li key={index}>
                    <code>{call.name}</code>: {call.summary}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}
