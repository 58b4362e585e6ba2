import { LogType, type resetPasswordRequestSchema } from '@switchboard/contracts';
import type { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { hashPassword } from '../../../core/platform/password-hasher.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import type { AccountServices } from '../user/account-services.ts';
import { assertEmailAllowed, normaliseEmail } from './email-rules.ts';
import { passwordResetMail, resetLink, sendOrExplain, verificationMail } from './verification-mail.ts';
import { verificationMessages } from './verification.messages.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

const generatedPasswordLength = 12;

/** Mail codes for registration and email binding, and the password reset by mail. */
export class VerificationService {
  private readonly services: AccountServices;

  constructor(services: AccountServices) {
    this.services = services;
  }

  /** Mails a code to an address that may be used for a new account or a binding. */
  async sendEmailCode(rawEmail: string): Promise<void> {
    const { options, logger } = this.services;
    const email = normaliseEmail(rawEmail);
    assertEmailAllowed(email, options);
    if (await this.services.users.findByIdentity('email', email)) throw new AppError(verificationMessages.emailTaken);
    const code = await this.services.codes.issue('email', email);
    await sendOrExplain(this.services.mailer, logger, email, verificationMail(options.get('SystemName'), code)).catch(async (error: unknown) => {
      await this.services.codes.releaseCooldown('email', email);
      throw error;
    });
  }

  /** True once for the right code mailed to this address. */
  consumeEmailCode(email: string, code: string): Promise<boolean> {
    return this.services.codes.consume('email', email, code);
  }

  async sendPasswordReset(rawEmail: string): Promise<void> {
    const { options, logger } = this.services;
    const email = normaliseEmail(rawEmail);
    const user = await this.services.users.findByIdentity('email', email);
    if (!user || user.deleted_at !== null) throw new AppError(verificationMessages.emailNotRegistered);
    const token = await this.services.codes.issue('reset', email);
    await sendOrExplain(this.services.mailer, logger, email, passwordResetMail(options.get('SystemName'), resetLink(options, email, token))).catch(
      async (error: unknown) => {
        await this.services.codes.releaseCooldown('reset', email);
        throw error;
      },
    );
  }

  /** Completes a reset: a generated password replaces the old one and every session ends. */
  async completePasswordReset(input: z.infer<typeof resetPasswordRequestSchema>): Promise<string> {
    const email = input.email.trim().toLowerCase();
    const user = email ? await this.services.users.findByIdentity('email', email) : undefined;
    if (!user || user.deleted_at !== null || !(await this.services.codes.consume('reset', email, input.token))) {
      throw new AppError(verificationMessages.resetLinkInvalid);
    }
    const password = randomAlphanumeric(generatedPasswordLength);
    await this.services.users.update(user.id, { password: await hashPassword(password) });
    await this.services.sessions.endAllForUser(user.id);
    await this.services.logWriter.record({
      user_id: user.id,
      username: user.username,
      type: LogType.system,
      ...keyedLogContent('通过邮件重置了密码', 'log.password_reset_by_email'),
    });
    await this.services.bus.publish(changeTopics.users, String(user.id));
    return password;
  }
}
