/** Types of replicas.js for the tests (the scripts are plain JavaScript run by node). */
export declare const REPLICA_PORT_STEP: number;

export interface ReplicaPlan {
  name: string;
  replicas: { label: string; port: number; url: string }[];
}

export declare function replicaPlan(routes: { name: string; port: number }[], env: Record<string, string | undefined>): ReplicaPlan[];
