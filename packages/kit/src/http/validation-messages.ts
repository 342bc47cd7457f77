/** The parts of an Ajv error (compiled with `verbose: true`) the messages need. */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

/**
 * Schemas may carry `messages: { <keyword>: 'texto' }` beside the keyword
 * (and `required` on the property itself) so a field can answer with the
 * exact sentence the UI shows, e.g. 'Mínimo 6 caracteres'.
 */
type Messages = Partial<Record<string, string>>;

const PARTS: Record<string, string> = {
  body: 'cuerpo',
  querystring: 'parámetro',
  params: 'parámetro de ruta',
  headers: 'cabecera',
};

export function validationMessage(issues: ValidationIssue[], context?: string): string {
  const issue = issues[0];
  if (!issue) return 'Petición inválida';
  const where = PARTS[context ?? 'body'] ?? 'campo';
  const field = issue.instancePath.split('/').filter(Boolean).join('.');
  const own = (issue.parentSchema?.messages ?? {}) as Messages;
  const label = `el ${where === 'cuerpo' ? 'campo' : where} "${field}"`;
  const { params } = issue;

  switch (issue.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const properties = (issue.parentSchema?.properties ?? {}) as Record<string, { messages?: Messages }>;
      const custom = properties[missing]?.messages?.required;
      return custom ?? capitalize(`el ${where === 'cuerpo' ? 'campo' : where} "${joinPath(field, missing)}" es requerido`);
    }
    case 'additionalProperties':
      return `Campo no permitido: "${joinPath(field, String(params.additionalProperty))}"`;
    case 'type':
      if (!field && context === 'body') return 'El cuerpo de la petición debe ser un objeto JSON';
      return own.type ?? capitalize(`${label} debe ser de tipo ${TYPE_NAMES[String(params.type)] ?? String(params.type)}`);
    case 'minLength':
      return own.minLength ?? capitalize(`${label} debe tener al menos ${String(params.limit)} caracteres`);
    case 'maxLength':
      return own.maxLength ?? capitalize(`${label} debe tener como máximo ${String(params.limit)} caracteres`);
    case 'minimum':
      return own.minimum ?? capitalize(`${label} debe ser mayor o igual que ${String(params.limit)}`);
    case 'maximum':
      return own.maximum ?? capitalize(`${label} debe ser menor o igual que ${String(params.limit)}`);
    case 'maxItems':
      return own.maxItems ?? capitalize(`${label} admite como máximo ${String(params.limit)} elementos`);
    case 'format':
      if (params.format === 'uuid') return own.format ?? 'Identificador inválido';
      return own.format ?? capitalize(`${label} no tiene un formato válido`);
    case 'pattern':
      return own.pattern ?? capitalize(`${label} no tiene un formato válido`);
    default:
      return own[issue.keyword] ?? capitalize(`${label} tiene un valor no permitido`);
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: 'texto',
  integer: 'número entero',
  number: 'número',
  boolean: 'verdadero/falso',
  array: 'lista',
  object: 'objeto',
  null: 'nulo',
};

function joinPath(base: string, key: string): string {
  return base ? `${base}.${key}` : key;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
