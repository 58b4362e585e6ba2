import { LogType } from '@switchboard/contracts';
import type { AppContext } from '../../app-context.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/app-error.ts';
import { changeTopics } from '../../platform/change-topics.ts';
import { randomAlphanumeric } from '../../platform/random.ts';
import { describeQuota } from '../listing/quota-text.ts';
import { signEpay, verifyEpay } from './epay-signature.ts';
import { topUpStatus, type WalletRepository } from './wallet.repository.ts';
import { walletMessages } from './wallet.messages.ts';

export interface PaymentForm {
  url: string;
  fields: Record<string, string>;
}

/** Console payment methods → Epay `type`; anything else is passed through (alipay, wxpay, qqpay…). */
const paymentTypes: Record<string, string> = { zfb: 'alipay', wx: 'wxpay' };

/**
 * Online top-up through an Epay gateway: `amount` is in dollars (or in quota units when the site does
 * not show currency), the price is amount × Price × TopupGroupRatio[group]. The notify callback is the
 * only thing that credits, exactly once per order, and only for a valid signature, merchant and sum.
 */
export class OnlineTopUpService {
  private readonly repository: WalletRepository;
  private readonly context: AppContext;

  constructor(repository: WalletRepository, context: AppContext) {
    this.repository = repository;
    this.context = context;
  }

  private get options() {
    return this.context.options;
  }

  /** Dollars the request is worth (the console sends quota units when currency display is off). */
  private dollars(amount: number): number {
    return this.options.getBoolean('DisplayInCurrencyEnabled') ? amount : amount / this.options.getNumber('QuotaPerUnit');
  }

  private minimum(): number {
    const minimum = this.options.getNumber('MinTopUp');
    return this.options.getBoolean('DisplayInCurrencyEnabled') ? minimum : Math.floor(minimum * this.options.getNumber('QuotaPerUnit'));
  }

  private async priceFor(user: CurrentUser, amount: number): Promise<number> {
    if (!Number.isInteger(amount) || amount < this.minimum()) throw new AppError(walletMessages.belowMinimum, { params: { min: this.minimum() } });
    const group = await this.repository.userGroup(user.id);
    const ratio = this.options.getJson<Record<string, number>>('TopupGroupRatio')?.[group] || 1;
    return Math.round(this.dollars(amount) * this.options.getNumber('Price') * ratio * 100) / 100;
  }

  async quote(user: CurrentUser, amount: number): Promise<string> {
    return (await this.priceFor(user, amount)).toFixed(2);
  }

  async startPayment(user: CurrentUser, amount: number, paymentMethod: string): Promise<PaymentForm> {
    const payAddress = this.options.get('PayAddress');
    const merchant = this.options.get('EpayId');
    const key = this.options.get('EpayKey');
    if (!payAddress || !merchant || !key) throw new AppError(walletMessages.paymentNotConfigured);
    const money = await this.priceFor(user, amount);
    if (money < 0.01) throw new AppError(walletMessages.amountTooLow);
    const now = this.context.clock.unixSeconds();
    const tradeNo = `USR${user.id}NO${randomAlphanumeric(6)}${now}`;
    const serverAddress = this.options.get('ServerAddress');
    const callbackAddress = this.options.get('CustomCallbackAddress') || serverAddress;
    const fields: Record<string, string> = {
      pid: merchant,
      type: paymentTypes[paymentMethod] ?? (paymentMethod || 'alipay'),
      out_trade_no: tradeNo,
      notify_url: `${callbackAddress}/api/user/epay/notify`,
      return_url: `${serverAddress}/log`,
      name: `TUC${amount}`,
      money: money.toFixed(2),
    };
    fields.sign = signEpay(fields, key);
    fields.sign_type = 'MD5';
    await this.repository.insertTopUp({ user_id: user.id, amount: Math.floor(this.dollars(amount)), money, trade_no: tradeNo, payment_method: fields.type ?? '', create_time: now, complete_time: 0, status: topUpStatus.pending });
    return { url: `${payAddress}/submit.php`, fields };
  }

  /** Handles one notify call; true means the call was genuine (the gateway then stops retrying). */
  async handleNotify(parameters: Record<string, string>): Promise<boolean> {
    const key = this.options.get('EpayKey');
    if (!key || !verifyEpay(parameters, key) || parameters.pid !== this.options.get('EpayId')) return false;
    if (parameters.trade_status !== 'TRADE_SUCCESS') return true;
    const now = this.context.clock.unixSeconds();
    const outcome = await this.repository.transaction(async (trx) => {
      const order = await this.repository.findTopUp(trx, parameters.out_trade_no ?? '');
      if (!order || Number(parameters.money) !== Math.round(Number(order.money) * 100) / 100) return 'refused' as const;
      // A replayed notify finds the order already completed and changes nothing.
      if (!(await this.repository.completeTopUp(trx, order.id, now))) return 'already' as const;
      const quota = Math.floor(Number(order.amount) * this.options.getNumber('QuotaPerUnit'));
      await this.repository.addUserQuota(trx, order.user_id, quota);
      return { order, quota, username: await this.repository.username(trx, order.user_id) };
    });
    if (outcome === 'refused') return false;
    if (outcome !== 'already') {
      const { order, quota, username } = outcome;
      await this.context.bus.publish(changeTopics.users, String(order.user_id));
      await this.context.logWriter.record({ user_id: order.user_id, username, type: LogType.topup, quota, content: `使用在线充值成功，充值金额: ${describeQuota(this.options, quota)}，支付金额：${Number(order.money).toFixed(2)}` });
    }
    return true;
  }
}
