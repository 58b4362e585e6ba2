import { LogType, RedemptionStatus } from '@switchboard/contracts';
import type { AppContext } from '../../app-context.ts';
import type { CurrentUser } from '../../auth/current-user.ts';
import { AppError } from '../../http/app-error.ts';
import type { FailureLimiter } from '../../http/rate-limit.ts';
import { changeTopics } from '../../platform/change-topics.ts';
import { describeQuota } from '../listing/quota-text.ts';
import type { WalletRepository } from './wallet.repository.ts';
import { walletMessages } from './wallet.messages.ts';

/**
 * Redeeming a code (`POST /api/user/topup`). The code flips from unused to used and the balance grows
 * in one transaction; the flip is a compare-and-set, so two simultaneous redeems credit once. Guessing
 * is throttled: unknown codes count as failures per user and per address.
 */
export class RedeemService {
  private readonly repository: WalletRepository;
  private readonly context: AppContext;
  private readonly limiter: FailureLimiter;

  constructor(repository: WalletRepository, context: AppContext, limiter: FailureLimiter) {
    this.repository = repository;
    this.context = context;
    this.limiter = limiter;
  }

  async redeem(user: CurrentUser, rawKey: string, ip: string): Promise<number> {
    const key = rawKey.trim();
    if (!key) throw new AppError(walletMessages.codeMissing);
    await this.limiter.assertAllowed(ip, String(user.id));
    try {
      return await this.credit(user, key);
    } catch (error) {
      if (error instanceof AppError && error.localized === walletMessages.codeInvalid) await this.limiter.recordFailure(ip, String(user.id));
      throw error;
    }
  }

  private async credit(user: CurrentUser, key: string): Promise<number> {
    const now = this.context.clock.unixSeconds();
    const redemption = await this.repository.transaction(async (trx) => {
      const code = await this.repository.findRedemption(trx, key);
      if (!code) throw new AppError(walletMessages.codeInvalid);
      if (code.status === RedemptionStatus.used) throw new AppError(walletMessages.codeUsed);
      if (code.status !== RedemptionStatus.unused) throw new AppError(walletMessages.codeDisabled);
      if (Number(code.expired_time) !== 0 && Number(code.expired_time) < now) throw new AppError(walletMessages.codeExpired);
      if (!(await this.repository.markRedemptionUsed(trx, code.id, user.id, now))) throw new AppError(walletMessages.codeUsed);
      await this.repository.addUserQuota(trx, user.id, Number(code.quota));
      return code;
    });
    const quota = Number(redemption.quota);
    await this.context.bus.publish(changeTopics.users, String(user.id));
    await this.context.logWriter.record({ user_id: user.id, username: user.username, type: LogType.topup, quota, content: `通过兑换码充值 ${describeQuota(this.context.options, quota)}，兑换码ID ${redemption.id}` });
    return quota;
  }
}
