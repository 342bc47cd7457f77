import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/errors';
import { toast } from '../../../lib/toasts';
import { usePermissions } from '../../../lib/workspace-roles';
import { SaveOrRoleNote } from '../../../ui/SaveOrRoleNote';
import { TextField } from '../../../ui/TextField';
import { getAssistantConfig, mayEditAssistant, saveAssistantConfig } from './api';
import { editableVariables } from './format';

/**
 * What each prompt variable stands for ({precio} → "25 €"), filled in before the prompt reaches the model.
 * {nombre_cliente} is not here: it comes from the contact of each conversation. Read-only for a role that may
 * not save the assistant's configuration.
 */
export function VariableValues() {
  const titleId = useId();
  const editable = usePermissions(mayEditAssistant) === true;
  const [variables, setVariables] = useState<string[] | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    getAssistantConfig().then(
      (config) => {
        if (!current) return;
        setVariables(editableVariables(config));
        setValues(config.variableValues ?? {});
      },
      (err: unknown) => {
        console.error('No se pudieron cargar los valores de las variables', err);
        if (current) setFailed(true);
      },
    );
    return () => {
      current = false;
    };
  }, []);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      // Onto the configuration as stored now, so nothing another card saved meanwhile is lost.
      const saved = await saveAssistantConfig({ ...(await getAssistantConfig()), variableValues: values });
      setVariables(editableVariables(saved));
      setValues(saved.variableValues ?? {});
      toast.success('Valores de las variables guardados');
    } catch (err) {
      console.error('No se pudieron guardar los valores de las variables', err);
      toast.error(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId} className="card-title">
        Valores de las variables
      </h2>
      {failed && <p className="field-error">No se pudieron cargar los valores de las variables</p>}
      {!failed && !variables && <p className="muted">Cargando...</p>}
      {variables && (
        <form onSubmit={onSubmit} noValidate>
          <p className="field-hint">
            El asistente lee estos valores en lugar de cada variable del prompt; una variable sin valor se lee como «dato no disponible».
            {' {nombre_cliente} '}se toma del contacto de cada conversación.
          </p>
          {variables.map((variable) => (
            <TextField
              key={variable}
              label={variable}
              maxLength={500}
              disabled={saving || !editable}
              value={values[variable] ?? ''}
              onInput={(e) => {
                const value = e.currentTarget.value;
                setValues((current) => ({ ...current, [variable]: value }));
              }}
            />
          ))}
          <SaveOrRoleNote editable={editable} saving={saving} label="Guardar valores" />
        </form>
      )}
    </section>
  );
}
