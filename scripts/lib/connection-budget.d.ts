/** Types of connection-budget.js for the tests (the scripts are plain JavaScript run by node). */
import type { Sql } from 'postgres';

export declare const OPERATOR_CONNECTIONS: number;

export declare function poolForBudget(budget: {
  processes: number;
  available: number;
  maxConnections: number;
  poolMax?: string;
}): { pool: number; lowered: boolean } | { error: string };

export declare function availableConnections(sql: Sql): Promise<{ available: number; maxConnections: number }>;
