import { LogType, type TwoFactorSetup, type TwoFactorStatus } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { FailureLimiter } from '../../../core/http/rate-limit.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { assertOutranks } from '../user/role-rules.ts';
import type { UserRepository } from '../user/user.repository.ts';
import { userMessages } from '../user/user.messages.ts';
import { findBackupCode, generateBackupCodes, hashBackupCodes, looksLikeBackupCode } from './backup-codes.ts';
import type { SecondFactorLock } from './second-factor-lock.ts';
import { decodeBase32, generateTotpSecret, matchingTimeStep, otpauthUrl } from './totp.ts';
import type { TwoFactorRepository } from './two-factor.repository.ts';
import { twoFactorMessages } from './two-factor.messages.ts';
import { keyedLogContent, type LogContentKey } from '../../../domain/logs/log-content.ts';

/** Who is proving a second factor, and from where (the address is named in the mail a lock sends). */
export interface CodeAttempt {
  userId: number;
  username: string;
  ip: string;
  code: string;
}

export interface TwoFactorDependencies {
  repository: TwoFactorRepository;
  users: UserRepository;
  options: OptionStore;
  limiter: FailureLimiter;
  /** Wrong codes per user, apart from the login's password count (which a right password resets). */
  lock: SecondFactorLock;
  logWriter: LogWriter;
  clock: Clock;
}

const sixDigits = /^\d{6}$/;

/**
 * TOTP second factor (RFC 6238: SHA-1, 6 digits, 30 s, ±1 step) with ten single-use backup codes.
 * Every code check of an enrolled user counts on the user's own second-factor count (SecondFactorLock):
 * past a few wrong codes the second step locks for a while and the user is told, whatever passwords
 * are entered meanwhile; a TOTP code is accepted once (the step is recorded atomically).
 */
export class TwoFactorService {
  private readonly deps: TwoFactorDependencies;

  constructor(deps: TwoFactorDependencies) {
    this.deps = deps;
  }

  async isEnabled(userId: number): Promise<boolean> {
    return (await this.deps.repository.find(userId))?.enabled === true;
  }

  async status(userId: number): Promise<TwoFactorStatus> {
    const record = await this.deps.repository.find(userId);
    if (!record?.enabled) return { enabled: false, locked: false };
    return { enabled: true, locked: await this.deps.lock.isLocked(userId), backup_codes_remaining: await this.deps.repository.countUnusedCodes(userId) };
  }

  /** A new pending secret and backup codes; both take effect only when `enable` confirms a code. */
  async setup(user: CurrentUser): Promise<TwoFactorSetup> {
    if (await this.isEnabled(user.id)) throw new AppError(twoFactorMessages.alreadyEnabled);
    const secret = generateTotpSecret();
    const codes = generateBackupCodes();
    await this.deps.repository.savePending(user.id, secret, await hashBackupCodes(codes), this.deps.clock.unixSeconds());
    const issuer = this.deps.options.get('SystemName') || 'Switchboard';
    await this.log(user.id, user.username, '开始设置两步验证', 'log.two_factor_setup_started');
    return { secret, qr_code_data: otpauthUrl(secret, issuer, user.username), backup_codes: codes };
  }

  async enable(user: CurrentUser, code: string, ip: string): Promise<void> {
    const record = await this.deps.repository.find(user.id);
    if (!record) throw new AppError(twoFactorMessages.setupFirst);
    if (record.enabled) throw new AppError(twoFactorMessages.alreadyEnabled);
    const attempt = await this.deps.limiter.reserve(ip, user.username);
    const step = sixDigits.test(code) ? matchingTimeStep(decodeBase32(record.secret), code, this.deps.clock.unixSeconds()) : undefined;
    if (step === undefined) throw new AppError(twoFactorMessages.wrongCode);
    if (!(await this.deps.repository.enable(user.id, step, this.deps.clock.unixSeconds()))) throw new AppError(twoFactorMessages.alreadyEnabled);
    await attempt.succeeded();
    await this.log(user.id, user.username, '启用两步验证', 'log.two_factor_enabled');
  }

  /** Turning it off takes a TOTP code or a backup code (the device may be the thing that was lost). */
  async disable(user: CurrentUser, code: string, ip: string): Promise<void> {
    await this.verify({ userId: user.id, username: user.username, ip, code });
    await this.deps.repository.remove(user.id);
    await this.log(user.id, user.username, '关闭两步验证', 'log.two_factor_disabled');
  }

  /** New codes replace all old ones; it takes a TOTP code, as new-api does (not a backup code). */
  async regenerateBackupCodes(user: CurrentUser, code: string, ip: string): Promise<string[]> {
    await this.verify({ userId: user.id, username: user.username, ip, code }, { backupCodes: false });
    const codes = generateBackupCodes();
    await this.deps.repository.replaceCodes(user.id, await hashBackupCodes(codes));
    await this.log(user.id, user.username, '重新生成两步验证备用码', 'log.two_factor_backup_codes_regenerated');
    return codes;
  }

  /**
   * Checks a second factor: a 6-digit TOTP code within ±1 step that was not used before, or (unless
   * refused) an unused backup code, which is then spent. Throws on a wrong, used or rate-limited code.
   */
  async verify(attemptInput: CodeAttempt, accept: { backupCodes: boolean } = { backupCodes: true }): Promise<void> {
    const { repository, lock, clock } = this.deps;
    const record = await repository.find(attemptInput.userId);
    if (!record?.enabled) throw new AppError(twoFactorMessages.notEnabled);
    const code = attemptInput.code.replace(/\s/g, '');
    if (!code) throw new AppError(twoFactorMessages.codeRequired);
    const attempt = await lock.reserve(record.userId, attemptInput.ip);
    if (sixDigits.test(code)) {
      const step = matchingTimeStep(decodeBase32(record.secret), code, clock.unixSeconds());
      if (step !== undefined) {
        if (!(await repository.takeStep(record.userId, step))) {
          // The right code, replayed: no guess, so it does not use up the user's failure budget.
          await attempt.release();
          throw new AppError(twoFactorMessages.codeUsed);
        }
        await attempt.succeeded();
        return;
      }
    } else if (accept.backupCodes && looksLikeBackupCode(code)) {
      const unused = await repository.unusedCodes(record.userId);
      const index = await findBackupCode(
        code,
        unused.map((entry) => entry.codeHash),
      );
      const match = unused[index];
      if (match && (await repository.useCode(match.id, clock.unixSeconds()))) {
        await attempt.succeeded();
        await this.log(record.userId, attemptInput.username, '使用了一个两步验证备用码', 'log.two_factor_backup_code_used');
        return;
      }
    }
    throw new AppError(twoFactorMessages.wrongCode);
  }

  /** An administrator removes a user's second factor (a lost device); logged for both to see. */
  async adminReset(actor: CurrentUser, targetId: number): Promise<void> {
    const target = await this.deps.users.findById(targetId);
    if (!target) throw new AppError(userMessages.notFound);
    assertOutranks(actor.role, target.role, twoFactorMessages.noPermission);
    if (!(await this.deps.repository.remove(targetId))) throw new AppError(twoFactorMessages.notEnabled);
    await this.deps.logWriter.record({
      user_id: target.id,
      username: target.username,
      type: LogType.manage,
      ...keyedLogContent(`管理员（${actor.username}，ID ${actor.id}）重置了用户的两步验证`, 'log.two_factor_reset_by_admin', {
        admin: actor.username,
        admin_id: actor.id,
      }),
    });
  }

  private async log(userId: number, username: string, content: string, key: LogContentKey): Promise<void> {
    await this.deps.logWriter.record({ user_id: userId, username, type: LogType.system, ...keyedLogContent(content, key) });
  }
}
