/**
 * Quota held by the requests in flight, per token and per user. Holds live in memory only: a hold
 * is never written to the database, so a process that dies (even by kill -9) strands none; only
 * settled charges are written. Cache reloads subtract them ("row + unwritten", see QuotaLedger).
 */
export class HeldQuota {
  private readonly tokens = new Map<number, number>();
  private readonly users = new Map<number, number>();

  add(tokenId: number | undefined, userId: number, amount: number): void {
    if (tokenId !== undefined) change(this.tokens, tokenId, amount);
    change(this.users, userId, amount);
  }

  remove(tokenId: number | undefined, userId: number, amount: number): void {
    if (tokenId !== undefined) change(this.tokens, tokenId, -amount);
    change(this.users, userId, -amount);
  }

  onToken(id: number): number {
    return this.tokens.get(id) ?? 0;
  }

  onUser(id: number): number {
    return this.users.get(id) ?? 0;
  }
}

function change(held: Map<number, number>, id: number, amount: number): void {
  const total = (held.get(id) ?? 0) + amount;
  if (total === 0) held.delete(id);
  else held.set(id, total);
}
