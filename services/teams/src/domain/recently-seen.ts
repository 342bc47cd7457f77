/**
 * Message ids this process already knows are marked seen, so a poll that brings nothing new costs no query.
 * Only a shortcut: the database (teams.seen_messages) stays the arbiter across processes and restarts.
 * Bounded per user and in users, oldest forgotten first.
 */
export class RecentlySeen {
  private readonly byUser = new Map<string, Set<string>>();

  constructor(
    private readonly perUser = 2000,
    private readonly users = 1000,
  ) {}

  /** The ids of `ids` not known here. */
  unknown(userId: string, ids: string[]): string[] {
    const known = this.byUser.get(userId);
    return known ? ids.filter((id) => !known.has(id)) : ids;
  }

  add(userId: string, ids: string[]): void {
    let known = this.byUser.get(userId);
    if (known) this.byUser.delete(userId);
    else known = new Set();
    this.byUser.set(userId, known);
    for (const id of ids) known.add(id);
    for (const id of known) {
      if (known.size <= this.perUser) break;
      known.delete(id);
    }
    for (const user of this.byUser.keys()) {
      if (this.byUser.size <= this.users) break;
      this.byUser.delete(user);
    }
  }
}
