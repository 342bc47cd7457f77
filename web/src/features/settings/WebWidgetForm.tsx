import { useState, type FormEvent } from 'react';
import { WIDGET_GREETING_MAX, WIDGET_NAME_MAX, type WidgetBody, type WidgetSettings } from '@asistente/contracts';
import { errorMessage } from '../../lib/errors';
import { Button } from '../../ui/Button';
import { FormError } from '../../ui/FormError';
import { TextField } from '../../ui/TextField';
import { DEFAULT_WIDGET_COLOR, originsFromText, originsToText } from './web-widget-fields';

interface WebWidgetFormProps {
  /** The chat being edited; absent when creating it. */
  widget: WidgetSettings | null;
  onSubmit: (body: WidgetBody) => Promise<void>;
}

/** Nombre, Color, Saludo and the websites allowed to show the chat; the server checks each and says what is wrong. */
export function WebWidgetForm({ widget, onSubmit }: WebWidgetFormProps) {
  const [name, setName] = useState(widget?.name ?? '');
  const [color, setColor] = useState(widget?.color ?? DEFAULT_WIDGET_COLOR);
  const [greeting, setGreeting] = useState(widget?.greeting ?? '¡Hola! ¿En qué podemos ayudarte?');
  const [origins, setOrigins] = useState(originsToText(widget?.allowedOrigins ?? []));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit({ name: name.trim(), color, greeting: greeting.trim(), allowedOrigins: originsFromText(origins) });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="web-widget-form" onSubmit={submit} noValidate>
      <TextField label="Nombre" value={name} maxLength={WIDGET_NAME_MAX} onChange={(e) => setName(e.target.value)} hint="El título del chat en tu web" required />
      <div className="field">
        <label htmlFor="web-widget-color">Color</label>
        <input id="web-widget-color" className="web-widget-color" type="color" value={color} onInput={(e) => setColor(e.currentTarget.value)} />
      </div>
      <div className="field">
        <label htmlFor="web-widget-greeting">Saludo</label>
        <textarea id="web-widget-greeting" rows={2} maxLength={WIDGET_GREETING_MAX} value={greeting} onInput={(e) => setGreeting(e.currentTarget.value)} />
      </div>
      <div className="field">
        <label htmlFor="web-widget-origins">Orígenes permitidos</label>
        <textarea
          id="web-widget-origins"
          rows={3}
          aria-describedby="web-widget-origins-hint"
          value={origins}
          placeholder="https://www.tu-negocio.es"
          onInput={(e) => setOrigins(e.currentTarget.value)}
        />
        <p id="web-widget-origins-hint" className="field-hint">
          Uno por línea: solo el esquema y el dominio de cada web donde pegarás el código. En cualquier otra web el chat no se muestra.
        </p>
      </div>
      <FormError message={error} />
      <Button type="submit" disabled={busy}>
        {widget ? 'Guardar cambios' : 'Crear chat web'}
      </Button>
    </form>
  );
}
