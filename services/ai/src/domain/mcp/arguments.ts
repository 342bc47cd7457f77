/**
 * Checks a tool call's arguments against the tool's own JSON Schema and says what is wrong in Spanish. The
 * assistant's tools are lenient with what a model sends (they trim and clip); an MCP client is a program that
 * should be told exactly which argument it got wrong. The schemas are the tools' flat objects, so this covers
 * what they use: type, required, additionalProperties, enum, minLength/maxLength, minimum/maximum, items, maxItems.
 */
interface PropertySchema {
  type?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  items?: PropertySchema;
}

interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
  additionalProperties?: boolean;
}

const TYPE_NAMES: Record<string, string> = { string: 'un texto', integer: 'un número entero', number: 'un número', boolean: 'verdadero o falso', array: 'una lista' };

function typeMatches(type: string | undefined, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    default:
      return true;
  }
}

function checkValue(name: string, schema: PropertySchema, value: unknown): string | undefined {
  if (!typeMatches(schema.type, value)) return `«${name}» debe ser ${TYPE_NAMES[schema.type ?? ''] ?? 'otro tipo de valor'}`;
  if (schema.enum && !schema.enum.includes(value)) return `«${name}» debe ser uno de: ${schema.enum.join(', ')}`;
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return `«${name}» contiene caracteres no válidos`;
    if (schema.minLength !== undefined && value.trim().length < schema.minLength) return `«${name}» no puede estar vacío`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `«${name}» admite como máximo ${schema.maxLength} caracteres`;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `«${name}» debe ser como mínimo ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `«${name}» debe ser como máximo ${schema.maximum}`;
  }
  if (Array.isArray(value)) {
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `«${name}» admite como máximo ${schema.maxItems} elementos`;
    for (const item of value) {
      const problem = schema.items ? checkValue(`${name}[]`, schema.items, item) : undefined;
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The first problem with `args` for a tool whose parameters are `schema`, in Spanish; undefined when they are fine. */
export function argumentProblem(schema: Record<string, unknown>, args: Record<string, unknown>): string | undefined {
  const { properties = {}, required = [], additionalProperties } = schema as ObjectSchema;
  for (const name of required) if (args[name] === undefined) return `Falta el argumento «${name}»`;
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) {
      if (additionalProperties === false) return `Argumento desconocido: «${name}»`;
      continue;
    }
    if (value === undefined) continue;
    const problem = checkValue(name, property, value);
    if (problem) return problem;
  }
  return undefined;
}
