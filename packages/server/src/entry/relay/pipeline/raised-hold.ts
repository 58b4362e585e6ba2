import type { BudgetKeeper } from '../../../domain/budgets/budget-keeper.ts';
import { estimatedQuota, preConsumeQuota, worstCaseQuota, type ModelPricing } from '../../../domain/billing/pricing.ts';
import type { QuotaLedger, Reservation, TokenBalance, UserBalance } from '../../../domain/billing/quota-ledger.ts';
import { quotaRefusal } from './quota-refusal.ts';
import { RelayError } from '../../../core/http/relay-error.ts';

/** A request's hold, and the output ceiling it was taken for (the caller's max_tokens at first). */
export interface HeldRequest {
  reservation: Reservation;
  outputTokens: number;
}

/** What the hold of one request is computed from, as in relay-pipeline.ts's first hold. */
export interface HoldTerms {
  readonly pricing: ModelPricing;
  readonly promptTokens: number;
  readonly floorTokens: number;
  readonly calls: number | undefined;
  readonly quotaPerUnit: number;
  /** The model's usual prompt and completion lately; undefined when none of its answers was seen yet. */
  readonly usual: { readonly prompt: number; readonly completion: number } | undefined;
  readonly token: TokenBalance | undefined;
  readonly user: UserBalance;
}

/**
 * Grows the hold when a channel's param_override asks the upstream for more output than the hold
 * covers: the old hold is given back and the larger one taken in its place, so the balance is judged
 * by the same rules as the first hold, for the body the upstream gets. Undefined when the hold now
 * covers it; the caller's refusal otherwise (then nothing is held any more).
 */
export async function raiseHold(
  ledger: QuotaLedger,
  budgets: BudgetKeeper,
  held: HeldRequest,
  terms: HoldTerms,
  outputTokens: number,
): Promise<RelayError | undefined> {
  if (outputTokens <= held.outputTokens) return undefined;
  const { pricing } = terms;
  const amount = preConsumeQuota(
    pricing,
    { promptTokens: terms.promptTokens, maxTokens: outputTokens, floorTokens: terms.floorTokens, calls: terms.calls },
    terms.quotaPerUnit,
  );
  if (amount <= held.reservation.amount) {
    held.outputTokens = outputTokens;
    return undefined;
  }
  const worstCase = worstCaseQuota(pricing, terms.promptTokens, outputTokens, amount);
  const expected = pricing.usePrice
    ? worstCase
    : terms.usual === undefined
      ? 0
      : estimatedQuota(pricing, terms.usual.prompt, Math.min(outputTokens, terms.usual.completion));
  ledger.refund(held.reservation);
  let reserved = ledger.reserve(terms.token, terms.user, amount, worstCase, expected);
  if (reserved instanceof Promise) reserved = await reserved;
  if (!reserved.ok) return quotaRefusal(reserved.refusedBy);
  held.reservation = reserved.reservation;
  held.outputTokens = outputTokens;
  try {
    await budgets.hold(reserved.reservation, worstCase);
  } catch (error) {
    // The budget refused (and gave the hold back): the caller's 429, as at the first hold.
    if (error instanceof RelayError) return error;
    throw error;
  }
  return undefined;
}
