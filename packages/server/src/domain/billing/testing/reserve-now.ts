import type { QuotaLedger, ReserveResult } from '../quota-ledger.ts';

/** A reservation a lone process decides at once (its own spending book): the tests' synchronous reserve. */
export function reserveNow(ledger: QuotaLedger, ...args: Parameters<QuotaLedger['reserve']>): ReserveResult {
  const result = ledger.reserve(...args);
  if (result instanceof Promise) throw new Error('a lone ledger decided a reservation asynchronously');
  return result;
}
