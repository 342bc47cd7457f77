import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { EVENT_DATA, eventEnvelope, type DomainEvent, type EventType } from '@asistente/contracts';

// ajv-formats ships CommonJS; under NodeNext its function sits on `.default`.
const addFormats = addFormatsModule.default;

export type Validation = { ok: true; event: DomainEvent } | { ok: false; reason: string };

/*
 * Each consumer holds a validator, and `npm start` runs a score of consumers in one process: compiling the
 * whole catalogue for each of them cost the app's boot 0.7 s of CPU (a third of it Ajv's own meta-schema,
 * once per instance), for types most consumers never receive. So the process has one Ajv, and a type's
 * function is compiled by the first event of that type, then shared by every validator.
 */
let ajv: Ajv | undefined;
const compiled = new Map<EventType, ValidateFunction>();

function validatorOf(type: EventType): ValidateFunction {
  let validate = compiled.get(type);
  if (!validate) {
    ajv ??= addFormats(new Ajv({ allErrors: false, strict: false }));
    validate = ajv.compile(eventEnvelope(type, EVENT_DATA[type]));
    compiled.set(type, validate);
  }
  return validate;
}

function isEventType(type: string): type is EventType {
  return Object.hasOwn(EVENT_DATA, type);
}

/**
 * Checks an incoming event against the catalogue (packages/contracts/src/events.ts): unknown types and bad
 * payloads are refused, and what passes is a `DomainEvent`, whose `type` narrows `data` to its shape. Every
 * consumer reads its events through one, so none guesses at fields.
 */
export class EventValidator {
  validate(input: unknown): Validation {
    const type = (input as { type?: unknown } | null)?.type;
    if (typeof type !== 'string') return { ok: false, reason: 'event without a type' };
    if (!isEventType(type)) return { ok: false, reason: `unknown event type ${type}` };
    const validator = validatorOf(type);
    if (!validator(input)) {
      const [error] = validator.errors ?? [];
      return { ok: false, reason: `${type}: ${error?.instancePath || '/'} ${error?.message ?? 'invalid'}` };
    }
    return { ok: true, event: input as DomainEvent };
  }
}
