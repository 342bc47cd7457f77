import type postgres from 'postgres';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- postgres.js's own default for "no custom types"
type NoCustomTypes = {};
/** The house's SQL client and its transactions: what everything that queries names, the database itself aside. */
export type Sql = postgres.Sql<NoCustomTypes>;
export type TransactionSql = postgres.TransactionSql<NoCustomTypes>;
