/** Types of replicas.js for the tests (the scripts are plain JavaScript run by node). */
export declare const REPLICA_PORT_STEP: number;

export interface ReplicaPlan {
  name: string;
  /** metricsPort: only when a metrics port base is configured (see metricsPortBase). */
  replicas: { label: string; port: number; url: string; metricsPort?: number }[];
}

export declare function metricsPortBase(env: Record<string, string | undefined>): number | undefined;

export declare function servicePortBase(env: Record<string, string | undefined>): number;

export declare function replicaPlan(routes: { name: string; port: number }[], env: Record<string, string | undefined>): ReplicaPlan[];
