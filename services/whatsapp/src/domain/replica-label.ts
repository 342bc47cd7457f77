import { createHash } from 'node:crypto';

/**
 * What an answer shows of the replica holding a socket: a short hash of its lease owner id. The id names
 * the host and process for the operator reading the lease row; a user, or anyone who gets hold of an
 * answer, learns only which replica it is, never where it runs.
 */
export function replicaLabel(owner: string): string {
  return `réplica ${createHash('sha256').update(owner).digest('hex').slice(0, 6)}`;
}
