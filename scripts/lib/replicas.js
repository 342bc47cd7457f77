/** How far apart the ports of one service's replicas are: 3002, 3102, 3202… (the services use 3001-3008). */
export const REPLICA_PORT_STEP = 100;
const MAX_REPLICAS = 9;

/**
 * The processes of each service: `REPLICAS` for every service (default 1), `REPLICAS_<SERVICE>` for one
 * (e.g. `REPLICAS_EMAIL=1`). The first replica keeps the service's own port; the others step up from it.
 * @param {{ name: string, port: number }[]} routes
 * @param {NodeJS.ProcessEnv} env
 * @returns {{ name: string, replicas: { label: string, port: number, url: string }[] }[]}
 */
export function replicaPlan(routes, env) {
  const all = count('REPLICAS', env.REPLICAS, 1);
  return routes.map((route) => {
    const variable = `REPLICAS_${route.name.toUpperCase()}`;
    const n = count(variable, env[variable], all);
    const replicas = Array.from({ length: n }, (_, i) => {
      const port = route.port + i * REPLICA_PORT_STEP;
      return { label: n === 1 ? route.name : `${route.name}-${i + 1}`, port, url: `http://127.0.0.1:${port}` };
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
