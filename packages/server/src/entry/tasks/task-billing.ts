import { readPriceTables } from '../../domain/billing/price-tables.ts';
import { resolvePricing, type ModelPricing } from '../../domain/billing/pricing.ts';
import type { Reservation } from '../../domain/billing/quota-ledger.ts';
import { logContentFields, type KeyedLogNote } from '../../domain/logs/log-content.ts';
import { renderMessage } from '../../core/messages/catalogue.ts';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import { changeTopics } from '../../core/platform/change-topics.ts';
import type { BalanceChanges } from '../../domain/billing/balance-changes.ts';
import type { RelayCaller } from '../relay/pipeline/caller-auth.ts';
import { consumeLogEntry } from '../relay/pipeline/consume-log.ts';
import { RelayError } from '../../core/http/relay-error.ts';
import type { RelayServices } from '../relay/relay-services.ts';
import type { TaskRefund, TaskStoreRepository, MidjourneyPatch, TaskPatch } from './task-store.repository.ts';

/** What one task action costs a caller: its model's per-call price (ModelPrice) × the group ratio. */
export interface TaskPrice {
  readonly model: string;
  readonly pricing: ModelPricing;
  readonly quota: number;
}

/**
 * The price of a task model for a caller, or undefined when the model is unpriced and unpriced
 * models are not accepted. Per-call price × QuotaPerUnit × group ratio; a model with only a ratio
 * costs ratio / 2 × QuotaPerUnit × group ratio (new-api's price of per-call tasks).
 */
export function priceTask(services: RelayServices, caller: RelayCaller, model: string): TaskPrice | undefined {
  const { options } = services;
  const tables = readPriceTables(options);
  const pricing = resolvePricing(
    tables,
    model,
    { userGroup: caller.user.group, usingGroup: caller.usingGroup },
    options.getBoolean('SelfUseModeEnabled') || caller.user.acceptUnpriced,
  );
  if (!pricing) return undefined;
  const perCall = pricing.usePrice ? pricing.modelPrice : pricing.modelRatio / 2;
  return { model, pricing, quota: Math.round(perCall * tables.quotaPerUnit * pricing.groupRatio) };
}

export type TaskHold = { ok: true; reservation: Reservation } | { ok: false; refusedBy: 'token' | 'user' };

/** Holds the whole price in memory before the vendor is called (no trust bypass for tasks). */
export function holdTaskQuota(services: RelayServices, caller: RelayCaller, price: TaskPrice): TaskHold | Promise<TaskHold> {
  return services.ledger.reserve(caller.token, caller.user, price.quota);
}

/**
 * Holds the task's price on the caller's token and user budgets too (see budgets/budget-keeper.ts).
 * Undefined when held (or no budget applies); else the refusal, in English as task APIs answer, with
 * the quota hold already given back.
 */
export async function holdTaskBudget(services: RelayServices, reservation: Reservation, quota: number): Promise<{ code: string; message: string } | undefined> {
  try {
    const pending = services.budgets.keeper.hold(reservation, quota);
    if (pending) await pending;
    return undefined;
  } catch (error) {
    if (!(error instanceof RelayError)) throw error;
    return { code: error.code, message: error.localized ? renderMessage(error.localized, 'en', error.params) : error.message };
  }
}

export interface TaskChargeFacts {
  readonly caller: RelayCaller;
  readonly price: TaskPrice;
  readonly channelId: number;
  readonly requestId: string;
  readonly requestPath: string;
  readonly startedAt: number;
  /**
   * The human note of the log row, e.g. the action and the vendor's task id: new-api's Chinese in
   * `content`, its message key and params in `other` for the console.
   */
  readonly note: KeyedLogNote;
}

/**
 * Turns the hold into the charge once the vendor accepted the task: through the ledger like every
 * relayed call (journal, batched balance writes, a consume log row with the per-call price).
 */
export function chargeTask(services: RelayServices, reservation: Reservation, facts: TaskChargeFacts): void {
  const { clock, options } = services;
  const { pricing } = facts.price;
  const log = options.getBoolean('LogConsumeEnabled')
    ? {
        ...consumeLogEntry({
          caller: facts.caller,
          model: facts.price.model,
          upstreamModel: facts.price.model,
          pricing,
          usage: { promptTokens: 0, completionTokens: 0 },
          quota: facts.price.quota,
          channelId: facts.channelId,
          triedChannels: [facts.channelId],
          stream: false,
          startedAt: facts.startedAt,
          finishedAt: clock.now(),
          firstResponseMs: undefined,
          requestId: facts.requestId,
          requestPath: facts.requestPath,
          localCount: false,
          endReason: 'done',
          warnings: [],
          createdAt: clock.unixSeconds(),
          extraOther: logContentFields(facts.note.key, facts.note.params),
        }),
        content: facts.note.text,
      }
    : undefined;
  void services.ledger.settle(reservation, facts.price.quota, facts.channelId, log);
}

/** Who hears of a refund: this process's caches, the spending guard and the other instances. */
export interface TaskRefundAnnouncer extends Pick<RelayServices, 'users' | 'tokens'> {
  readonly balanceChanges: BalanceChanges;
  readonly bus: ChangeBus;
}

/**
 * Ends failed tasks with their refund (see TaskStoreRepository: once per task, in one transaction),
 * then brings this instance's balances up to date and tells the other instances.
 */
export class TaskRefunds {
  private readonly announcer: TaskRefundAnnouncer;
  private readonly store: TaskStoreRepository;

  constructor(announcer: TaskRefundAnnouncer, store: TaskStoreRepository) {
    this.announcer = announcer;
    this.store = store;
  }

  async failMidjourney(id: number, patch: MidjourneyPatch, refund: TaskRefund): Promise<boolean> {
    const refunded = await this.store.failMidjourney(id, patch, refund);
    if (refunded && refund.quota > 0) await this.announce(refund);
    return refunded;
  }

  async failTask(id: number, patch: TaskPatch, refund: TaskRefund): Promise<boolean> {
    const refunded = await this.store.failTask(id, patch, refund);
    if (refunded && refund.quota > 0) await this.announce(refund);
    return refunded;
  }

  private async announce(refund: TaskRefund): Promise<void> {
    const { users, tokens, balanceChanges, bus } = this.announcer;
    balanceChanges.changed('user', refund.userId, refund.quota);
    if (refund.tokenId > 0) balanceChanges.changed('token', refund.tokenId, refund.quota);
    // Row + unwritten, as every cache reload: the refund is in the row now.
    await users.reload(refund.userId);
    if (refund.tokenId > 0) await tokens.reload(refund.tokenId);
    void bus.publish(changeTopics.users, String(refund.userId)).catch(() => undefined);
    if (refund.tokenId > 0) void bus.publish(changeTopics.tokens, String(refund.tokenId)).catch(() => undefined);
  }
}
