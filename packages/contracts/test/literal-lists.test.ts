// Proves the lists written once (calendar sources, mail providers, webhook types) give schemas that accept exactly their names, read as those names by the routes' type provider, and say them in Spanish.
import t from 'tap';
import type { Static } from 'typebox';
import { Value } from '@sinclair/typebox/value';
import {
  CALENDAR_EVENT_SOURCES,
  CALENDAR_SOURCES,
  CalendarEventSource,
  DateRangeQuery,
  MAIL_PROVIDERS,
  MailProviderName,
  OAuthProviderParams,
  WEBHOOK_EVENT_DATA,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_TEST_TYPE,
  WebhookDelivery,
  WebhookEndpointBody,
  WebhookEventTypeSchema,
  WebhookMessage,
  type CalendarSourceName,
  type WebhookEventType,
} from '../src/index.js';
import { spokenList } from '../src/literals.js';

// What Fastify's TypeBox provider reads a schema as (its `Static` is TypeBox 1's): a list's names, never `never`.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const readByRoutes: [
  Same<NonNullable<Static<typeof DateRangeQuery>['source']>, CalendarSourceName>,
  Same<CalendarSourceName, 'google' | 'msteams' | 'caldav'>,
  Same<Static<typeof CalendarEventSource>, CalendarSourceName | 'local'>,
  Same<Static<typeof OAuthProviderParams>['provider'], 'gmail' | 'outlook'>,
  Same<Static<typeof MailProviderName>, (typeof MAIL_PROVIDERS)[number]>,
  Same<Static<typeof WebhookEndpointBody>['events'][number], WebhookEventType>,
  Same<Static<typeof WebhookDelivery>['payload']['type'], WebhookEventType | typeof WEBHOOK_TEST_TYPE>,
  Same<Extract<Static<typeof WebhookMessage>, { type: 'calendar.event.deleted' }>['data']['source'], CalendarSourceName | 'local'>,
] = [true, true, true, true, true, true, true, true];

t.test('each schema accepts its list, and only it', async (t) => {
  t.ok(readByRoutes.every(Boolean));
  for (const [schema, names] of [
    [CalendarEventSource, CALENDAR_EVENT_SOURCES],
    [MailProviderName, MAIL_PROVIDERS],
    [WebhookEventTypeSchema, WEBHOOK_EVENT_TYPES],
  ] as const) {
    t.ok(names.every((name) => Value.Check(schema, name)), names.join(', '));
    t.notOk(Value.Check(schema, 'icloud'));
  }
  t.ok(CALENDAR_SOURCES.every((source) => CALENDAR_EVENT_SOURCES.includes(source)), "every calendar provider's entries are events' sources");
  t.same(Object.keys(WEBHOOK_EVENT_DATA), [...WEBHOOK_EVENT_TYPES], 'a payload for each webhook type, in the list order');
  t.same(
    WebhookMessage.anyOf.map((body) => body.properties.type.const),
    [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_TYPE],
    'a delivery body per type, and the test',
  );
});

t.test('a refused name is told with the list, in Spanish', async (t) => {
  t.equal(spokenList(CALENDAR_SOURCES), 'google, msteams o caldav');
  t.equal(spokenList(['gmail', 'outlook']), 'gmail u outlook', 'u before an o sound');
  t.equal(spokenList(['imap']), 'imap');
  const told = (union: { anyOf: readonly object[] }) => union.anyOf.map((literal) => (literal as { messages?: unknown }).messages);
  t.same(told(OAuthProviderParams.properties.provider), [1, 2].map(() => ({ const: 'Proveedor inválido: usa gmail u outlook' })), 'each name refuses the same way');
  const sources = DateRangeQuery.properties.source;
  t.same(told(sources), CALENDAR_SOURCES.map(() => ({ const: 'Origen inválido: usa google, msteams o caldav' })));
});
