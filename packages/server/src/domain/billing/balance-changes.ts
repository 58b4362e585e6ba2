/** Whose balance changed: a token's remaining quota or a user's quota. */
export type BalanceOwner = 'token' | 'user';

/**
 * Balances changed from outside the relay's charges: a top-up, a redemption, an administrator's edit,
 * invitation earnings moved in, a task refunded. The service that wrote the change tells it here,
 * once, in the process that wrote it; the relay passes it to the deployment's spending guard, whose
 * account of the balance moves by the same amount (every process would hear the change bus, so the
 * bus cannot say it once).
 */
export class BalanceChanges {
  private listener: ((owner: BalanceOwner, id: number, delta: number) => void) | undefined;

  listen(listener: (owner: BalanceOwner, id: number, delta: number) => void): void {
    this.listener = listener;
  }

  changed(owner: BalanceOwner, id: number, delta: number): void {
    if (delta !== 0 && Number.isFinite(delta)) this.listener?.(owner, id, delta);
  }
}
