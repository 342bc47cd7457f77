/** How far apart the ports of one service's replicas are: 3002, 3102, 3202… (the services use 3001-3010). */
export const REPLICA_PORT_STEP = 100;
const MAX_REPLICAS = 9;
/** The gateway's own port, from which each service's metrics port keeps its distance (auth 3001 → base + 1). */
const GATEWAY_PORT = 3000;

/**
 * The metrics port base (`METRICS_PORT_BASE`, or `METRICS_PORT` when only that is set): the gateway's metrics
 * listen on it, and each replica's at the same distance from it as its own port from 3000 (base 9400:
 * auth 9401, contacts 9402, contacts-2 9502), so no two processes on one machine take the same one.
 * Undefined when neither is set: no process serves metrics.
 * @param {NodeJS.ProcessEnv} env
 * @returns {number | undefined}
 */
export function metricsPortBase(env) {
  const variable = env.METRICS_PORT_BASE ? 'METRICS_PORT_BASE' : env.METRICS_PORT ? 'METRICS_PORT' : undefined;
  return variable ? portBase(variable, env[variable]) : undefined;
}

/**
 * The services' port base (`SERVICE_PORT_BASE`, default 3000): each service's first replica listens as far
 * from it as its own port is from 3000 (base 23000: auth 23001, contacts 23002, contacts-2 23102), so a
 * second stack on one machine (a test) takes ports of its own.
 * @param {NodeJS.ProcessEnv} env
 * @returns {number}
 */
export function servicePortBase(env) {
  return env.SERVICE_PORT_BASE ? portBase('SERVICE_PORT_BASE', env.SERVICE_PORT_BASE) : GATEWAY_PORT;
}

/**
 * @param {string} variable
 * @param {string | undefined} value
 */
function portBase(variable, value) {
  const base = Number(value);
  const highest = base + (MAX_REPLICAS - 1) * REPLICA_PORT_STEP + 99;
  if (!Number.isInteger(base) || base < 1024 || highest > 65535) {
    throw new Error(`${variable} must be a whole number from 1024 to ${65535 - (MAX_REPLICAS - 1) * REPLICA_PORT_STEP - 99} (got "${value}")`);
  }
  return base;
}

/**
 * The processes of each service: `REPLICAS` for every service (default 1), `REPLICAS_<SERVICE>` for one
 * (e.g. `REPLICAS_EMAIL=1`). The first replica keeps the service's own port (from SERVICE_PORT_BASE); the
 * others step up from it.
 * @param {{ name: string, port: number }[]} routes
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ name: string, replicas: { label: string, port: number, url: string, metricsPort?: number }[] }[]}
 */
export function replicaPlan(routes, env) {
  const all = count('REPLICAS', env.REPLICAS, 1);
  const metricsBase = metricsPortBase(env);
  const base = servicePortBase(env);
  return routes.map((route) => {
    const variable = `REPLICAS_${route.name.toUpperCase()}`;
    const n = count(variable, env[variable], all);
    const replicas = Array.from({ length: n }, (_, i) => {
      const offset = route.port - GATEWAY_PORT + i * REPLICA_PORT_STEP;
      const port = base + offset;
      const replica = { label: n === 1 ? route.name : `${route.name}-${i + 1}`, port, url: `http://127.0.0.1:${port}` };
      return metricsBase === undefined ? replica : { ...replica, metricsPort: metricsBase + offset };
    });
    return { name: route.name, replicas };
  });
}

/**
 * @param {string} variable
 * @param {string | undefined} value
 * @param {number} fallback
 */
function count(variable, value, fallback) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_REPLICAS) throw new Error(`${variable} must be a whole number from 1 to ${MAX_REPLICAS} (got "${value}")`);
  return n;
}
