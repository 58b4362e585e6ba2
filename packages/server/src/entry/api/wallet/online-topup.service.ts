import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import { LogType, type TopUpPrice, type TopUpRecord } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import { describeQuota } from '../../../domain/billing/quota-text.ts';
import { firstAmbiguousEpayField, isPlainEpayValue, signEpay, verifyEpay } from './epay-signature.ts';
import { resolvePayType } from './pay-methods.ts';
import { amountDiscounts } from './topup-info.ts';
import { topUpStatus, type WalletRepository } from './wallet.repository.ts';
import { walletMessages } from './wallet.messages.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

export interface PaymentForm {
  url: string;
  fields: Record<string, string>;
}

/**
 * The most dollars one online top-up may buy: 730,000 CNY at the default Price, far above any single
 * Epay payment, so it stops only absurd amounts (and keeps `money` a plain two-decimal number).
 */
const maxTopUpDollars = 100_000;
/**
 * The most quota one top-up may add, 2^43: a balance can take 1024 of them and still be an exact
 * integer in JavaScript (2^53). It binds only when QuotaPerUnit is set very high.
 */
const maxTopUpQuota = 2 ** 43;
/** A notify without these cannot be matched to one paid order; Epay always sends them. */
const requiredNotifyFields = ['trade_no', 'type', 'out_trade_no', 'money'] as const;
/** `money` as Epay writes it (`73.00`); Number() alone would also take `0x49`, `7.3e1` or spaces. */
const moneyPattern = /^\d+(\.\d+)?$/;

/**
 * Online top-up through an Epay gateway: `amount` is in dollars (or in quota units when the site does
 * not show currency), the price is amount × Price × TopupGroupRatio[group] × the discount set for that
 * amount. The notify callback is the only thing that credits, exactly once per order, and only for a
 * valid signature, merchant and sum.
 */
export class OnlineTopUpService {
  private readonly repository: WalletRepository;
  private readonly options: OptionStore;
  private readonly bus: ChangeBus;
  private readonly logWriter: LogWriter;
  private readonly clock: Clock;

  private readonly balanceChanges: BalanceChanges;

  constructor(dependencies: {
    repository: WalletRepository;
    options: OptionStore;
    bus: ChangeBus;
    logWriter: LogWriter;
    clock: Clock;
    balanceChanges: BalanceChanges;
  }) {
    this.balanceChanges = dependencies.balanceChanges;
    this.repository = dependencies.repository;
    this.options = dependencies.options;
    this.bus = dependencies.bus;
    this.logWriter = dependencies.logWriter;
    this.clock = dependencies.clock;
  }

  /** The caller's own top-up orders, newest first. */
  topUps(user: CurrentUser, offset: number, limit: number): Promise<TopUpRecord[]> {
    return this.repository.listTopUps(user.id, offset, limit);
  }

  /** Dollars the request is worth (the console sends quota units when currency display is off). */
  private dollars(amount: number): number {
    return this.options.getBoolean('DisplayInCurrencyEnabled') ? amount : amount / this.options.getNumber('QuotaPerUnit');
  }

  /** The quota an order of `amount` credits, to the unit: quota units as asked, or dollars × QuotaPerUnit. */
  private quotaFor(amount: number): number {
    return this.options.getBoolean('DisplayInCurrencyEnabled') ? Math.floor(amount * this.options.getNumber('QuotaPerUnit')) : amount;
  }

  /** Dollars in the unit the console sends. */
  private displayed(dollars: number): number {
    return this.options.getBoolean('DisplayInCurrencyEnabled') ? dollars : Math.floor(dollars * this.options.getNumber('QuotaPerUnit'));
  }

  private minimum(): number {
    return this.displayed(this.options.getNumber('MinTopUp'));
  }

  private maximum(): number {
    return this.displayed(Math.min(maxTopUpDollars, Math.floor(maxTopUpQuota / this.options.getNumber('QuotaPerUnit'))));
  }

  private async priceFor(user: CurrentUser, amount: number): Promise<number> {
    if (amount > this.maximum()) throw new AppError(walletMessages.aboveMaximum, { params: { max: this.maximum() } });
    if (!Number.isInteger(amount) || amount < this.minimum()) throw new AppError(walletMessages.belowMinimum, { params: { min: this.minimum() } });
    const group = await this.repository.userGroup(user.id);
    const ratio = this.options.getJson<Record<string, number>>('TopupGroupRatio')?.[group] || 1;
    // As new-api: a discount is set for an exact amount the wallet offers, keyed by what the user asked for.
    const discount = amountDiscounts(this.options)[String(amount)] ?? 1;
    return Math.round(this.dollars(amount) * this.options.getNumber('Price') * ratio * discount * 100) / 100;
  }

  async quote(user: CurrentUser, amount: number): Promise<TopUpPrice> {
    return (await this.priceFor(user, amount)).toFixed(2);
  }

  async startPayment(user: CurrentUser, amount: number, paymentMethod: string): Promise<PaymentForm> {
    const payAddress = this.options.get('PayAddress');
    const merchant = this.options.get('EpayId');
    const key = this.options.get('EpayKey');
    const serverAddress = this.options.get('ServerAddress');
    // The provider's notification (unless CustomCallbackAddress) and the payer's return go to
    // ServerAddress: an order started without it could never be completed.
    if (!payAddress || !merchant || !key || !serverAddress) throw new AppError(walletMessages.paymentNotConfigured);
    const type = resolvePayType(paymentMethod, this.options.getJson<unknown>('PayMethods'));
    if (type === undefined) throw new AppError(walletMessages.unknownPaymentMethod);
    const money = await this.priceFor(user, amount);
    if (money < 0.01) throw new AppError(walletMessages.amountTooLow);
    const now = this.clock.unixSeconds();
    const tradeNo = `USR${user.id}NO${randomAlphanumeric(6)}${now}`;
    const callbackAddress = this.options.get('CustomCallbackAddress') || serverAddress;
    const fields: Record<string, string> = {
      pid: merchant,
      type,
      out_trade_no: tradeNo,
      notify_url: `${callbackAddress}/api/user/epay/notify`,
      return_url: `${serverAddress}/log`,
      name: `TUC${amount}`,
      money: money.toFixed(2),
    };
    const ambiguous = firstAmbiguousEpayField(fields);
    if (ambiguous !== undefined) throw new AppError(walletMessages.unsignableField, { params: { field: ambiguous } });
    fields.sign = signEpay(fields, key);
    fields.sign_type = 'MD5';
    await this.repository.insertTopUp({
      user_id: user.id,
      amount: Math.floor(this.dollars(amount)),
      quota: this.quotaFor(amount),
      money,
      trade_no: tradeNo,
      payment_method: type,
      create_time: now,
      complete_time: 0,
      status: topUpStatus.pending,
    });
    return { url: `${payAddress}/submit.php`, fields };
  }

  private paysFor(money: string, orderMoney: number): boolean {
    return moneyPattern.test(money) && Number(money) === Math.round(orderMoney * 100) / 100;
  }

  /** Handles one notify call; true means the call was genuine (the gateway then stops retrying). */
  async handleNotify(parameters: Record<string, string>): Promise<boolean> {
    const key = this.options.get('EpayKey');
    if (!key || !verifyEpay(parameters, key) || parameters.pid !== this.options.get('EpayId')) return false;
    if (!requiredNotifyFields.every((name) => isPlainEpayValue(parameters[name] ?? ''))) return false;
    if (parameters.trade_status !== 'TRADE_SUCCESS') return true;
    const now = this.clock.unixSeconds();
    const outcome = await this.repository.transaction(async (wallet) => {
      const order = await wallet.findTopUp(parameters.out_trade_no ?? '');
      if (!order || parameters.type !== order.payment_method || !this.paysFor(parameters.money ?? '', Number(order.money))) return 'refused' as const;
      // A replayed notify finds the order already completed and changes nothing.
      if (!(await wallet.completeTopUp(order.id, now))) return 'already' as const;
      // What the order was priced for; new-api's rows (quota 0) credit their whole dollars.
      const quota = Number(order.quota) || Math.floor(Number(order.amount) * this.options.getNumber('QuotaPerUnit'));
      await wallet.addUserQuota(order.user_id, quota);
      return { order, quota, username: await wallet.username(order.user_id) };
    });
    if (outcome === 'refused') return false;
    if (outcome !== 'already') {
      const { order, quota, username } = outcome;
      this.balanceChanges.changed('user', order.user_id, quota);
      await this.bus.publish(changeTopics.users, String(order.user_id));
      await this.logWriter.record({
        user_id: order.user_id,
        username,
        type: LogType.topup,
        quota,
        ...keyedLogContent(
          `使用在线充值成功，充值金额: ${describeQuota(this.options, quota)}，支付金额：${Number(order.money).toFixed(2)}`,
          'log.online_topup',
          {
            quota,
            money: Number(order.money).toFixed(2),
          },
        ),
      });
    }
    return true;
  }
}
