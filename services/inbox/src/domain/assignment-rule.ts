import type { AssignmentRule } from '@asistente/contracts';

/**
 * Who the workspace's rule gives a new or reopened conversation to, among the members available now
 * (`available`, in any order): nobody; the next after `lastAssigned` in a fixed order (round-robin); or the one
 * with the fewest open conversations, ties taking turns the same way. Pure: the caller holds the lock that makes
 * the turn one at a time.
 */
export function pickAssignee(rule: AssignmentRule, available: readonly string[], lastAssigned: string | null, open: ReadonlyMap<string, number>): string | null {
  if (rule === 'none' || available.length === 0) return null;
  const inTurn = [...available].sort();
  // Start right after the last one assigned (wrapping), so equal candidates take turns.
  const next = lastAssigned === null ? 0 : inTurn.findIndex((id) => id > lastAssigned);
  const start = next < 0 ? 0 : next;
  const order = [...inTurn.slice(start), ...inTurn.slice(0, start)];
  if (rule === 'round_robin') return order[0]!;
  let best = order[0]!;
  for (const id of order) if ((open.get(id) ?? 0) < (open.get(best) ?? 0)) best = id;
  return best;
}
