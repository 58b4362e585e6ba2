import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import { LogType, type RedeemedQuota, RedemptionStatus } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { FailureLimiter } from '../../../core/http/rate-limit.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { describeQuota } from '../../../domain/billing/quota-text.ts';
import type { WalletRepository } from './wallet.repository.ts';
import { walletMessages } from './wallet.messages.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

/**
 * Redeeming a code (`POST /api/user/topup`). The code flips from unused to used and the balance grows
 * in one transaction; the flip is a compare-and-set, so two simultaneous redeems credit once. Guessing
 * is throttled: each redeem is counted per user and per address before the code is looked up, and
 * only unknown codes keep their count (http/rate-limit.ts).
 */
export class RedeemService {
  private readonly repository: WalletRepository;
  private readonly limiter: FailureLimiter;
  private readonly options: OptionStore;
  private readonly bus: ChangeBus;
  private readonly logWriter: LogWriter;
  private readonly clock: Clock;
  private readonly balanceChanges: BalanceChanges;

  constructor(dependencies: {
    repository: WalletRepository;
    limiter: FailureLimiter;
    options: OptionStore;
    bus: ChangeBus;
    logWriter: LogWriter;
    clock: Clock;
    balanceChanges: BalanceChanges;
  }) {
    this.repository = dependencies.repository;
    this.limiter = dependencies.limiter;
    this.options = dependencies.options;
    this.bus = dependencies.bus;
    this.balanceChanges = dependencies.balanceChanges;
    this.logWriter = dependencies.logWriter;
    this.clock = dependencies.clock;
  }

  async redeem(user: CurrentUser, rawKey: string, ip: string): Promise<RedeemedQuota> {
    const key = rawKey.trim();
    if (!key) throw new AppError(walletMessages.codeMissing);
    const attempt = await this.limiter.reserve(ip, String(user.id));
    try {
      const credited = await this.credit(user, key);
      await attempt.release();
      return credited;
    } catch (error) {
      // Only an unknown code is a guess; a used, disabled or expired one gives its attempt back too.
      if (!(error instanceof AppError && error.localized === walletMessages.codeInvalid)) await attempt.release();
      throw error;
    }
  }

  private async credit(user: CurrentUser, key: string): Promise<number> {
    const now = this.clock.unixSeconds();
    const redemption = await this.repository.transaction(async (wallet) => {
      const code = await wallet.findRedemption(key);
      if (!code) throw new AppError(walletMessages.codeInvalid);
      if (code.status === RedemptionStatus.used) throw new AppError(walletMessages.codeUsed);
      if (code.status !== RedemptionStatus.unused) throw new AppError(walletMessages.codeDisabled);
      if (Number(code.expired_time) !== 0 && Number(code.expired_time) < now) throw new AppError(walletMessages.codeExpired);
      if (!(await wallet.markRedemptionUsed(code.id, user.id, now))) throw new AppError(walletMessages.codeUsed);
      await wallet.addUserQuota(user.id, Number(code.quota));
      return code;
    });
    const quota = Number(redemption.quota);
    this.balanceChanges.changed('user', user.id, quota);
    await this.bus.publish(changeTopics.users, String(user.id));
    await this.logWriter.record({
      user_id: user.id,
      username: user.username,
      type: LogType.topup,
      quota,
      ...keyedLogContent(`通过兑换码充值 ${describeQuota(this.options, quota)}，兑换码ID ${redemption.id}`, 'log.redeem', {
        quota,
        redemption_id: redemption.id,
      }),
    });
    return quota;
  }
}
