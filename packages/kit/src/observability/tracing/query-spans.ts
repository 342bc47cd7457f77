import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Sql, TransactionSql } from '../../db/sql.js';
import { kitTracer } from './trace-context.js';

/** The longest query text a span carries: enough to recognise the statement, bounded for the exporter. */
const MAX_TEXT = 2_000;

type QueryLike = PromiseLike<unknown> & { strings?: readonly string[] };

function isTemplate(first: unknown): first is TemplateStringsArray {
  return Array.isArray(first) && Array.isArray((first as unknown as TemplateStringsArray).raw);
}

/** What a span says of a statement, worked out once per call site (postgres.js passes the same strings array each time). */
interface Statement {
  name: string;
  attributes: { 'db.system.name': string; 'db.operation.name': string; 'db.query.text': string };
}

const statements = new WeakMap<readonly string[], Statement>();

/** The statement as written, values replaced by `$n`: never a parameter. */
function statementOf(strings: readonly string[]): Statement {
  let statement = statements.get(strings);
  if (statement) return statement;
  let text = strings[0] ?? '';
  for (let i = 1; i < strings.length; i++) text += `$${i}${strings[i]}`;
  text = text.replace(/\s+/g, ' ').trim();
  if (text.length > MAX_TEXT) text = `${text.slice(0, MAX_TEXT)}…`;
  const verb = /^\w+/.exec(text)?.[0]?.toLowerCase() ?? 'query';
  statement = { name: `db ${verb}`, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': verb, 'db.query.text': text } };
  // `unsafe` passes a fresh array each call: its entry goes when the array does.
  statements.set(strings, statement);
  return statement;
}

/**
 * Gives a query a span when it runs: postgres.js runs a query the first time it is awaited (`then`),
 * so the span starts there, under whatever span is active at that moment, and ends with the query's
 * outcome. A query only built as a fragment of another is never awaited and gets no span; nor does one
 * run outside any span (the relay's polls, a lease renewal): a root trace per poll would bury the rest.
 */
function spanOnRun<T extends QueryLike>(query: T, strings: readonly string[]): T {
  const run = query.then.bind(query);
  let ran: PromiseLike<unknown> | undefined;
  type Handlers = Parameters<PromiseLike<unknown>['then']>;
  const traced = function (this: T, ...handlers: Handlers) {
    if (!ran && !trace.getSpan(context.active())) ran = run();
    if (!ran) {
      const { name, attributes } = statementOf(strings);
      const span = kitTracer().startSpan(name, { kind: SpanKind.CLIENT, attributes });
      ran = run(
        (result: unknown) => {
          const count = (result as { count?: unknown } | undefined)?.count;
          if (typeof count === 'number') span.setAttribute('db.response.returned_rows', count);
          span.end();
          return result;
        },
        (error: unknown) => {
          const code = (error as { code?: unknown }).code;
          if (typeof code === 'string') span.setAttribute('db.response.status_code', code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? code : 'query failed' });
          span.end();
          throw error;
        },
      );
    }
    return ran.then(...handlers);
  };
  Object.defineProperty(query, 'then', { value: traced, configurable: true, writable: true });
  return query;
}

/**
 * The database client with a span per query (tagged templates and `unsafe`), inside transactions too.
 * Used only while tracing is on: with tracing off the client is postgres.js's own, untouched.
 */
export function traceQueries<T extends Sql | TransactionSql>(sql: T): T {
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const result: unknown = Reflect.apply(target, thisArg, args);
      return isTemplate(args[0]) ? spanOnRun(result as QueryLike, args[0]) : result;
    },
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'unsafe') {
        return (text: string, ...rest: unknown[]) => spanOnRun((value as (...a: unknown[]) => QueryLike)(text, ...rest), [text]);
      }
      if (property === 'begin' || property === 'savepoint') {
        // The transaction's own client is a new function: it is traced the same way before the callback sees it.
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const callback = args[last];
          if (typeof callback === 'function') {
            args[last] = (tx: TransactionSql) => (callback as (tx: TransactionSql) => unknown)(traceQueries(tx));
          }
          return (value as (...a: unknown[]) => unknown)(...args);
        };
      }
      return value;
    },
  });
}
