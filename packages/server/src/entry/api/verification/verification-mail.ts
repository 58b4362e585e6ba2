import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { MailNotConfiguredError, type Mailer } from '../../../core/platform/mailer.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import { codeValiditySeconds } from './verification-codes.ts';
import { verificationMessages } from './verification.messages.ts';

const minutes = codeValiditySeconds / 60;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

export function verificationMail(systemName: string, code: string) {
  const name = escapeHtml(systemName);
  return {
    subject: `${systemName} 邮箱验证邮件 / Email verification`,
    html: `<p>您好，你正在进行 ${name} 邮箱验证。</p><p>您的验证码为：<strong>${code}</strong></p><p>验证码 ${minutes} 分钟内有效，如果不是本人操作，请忽略。</p><hr><p>Your ${name} verification code is <strong>${code}</strong>. It is valid for ${minutes} minutes.</p>`,
  };
}

export function passwordResetMail(systemName: string, link: string) {
  const name = escapeHtml(systemName);
  const href = escapeHtml(link);
  return {
    subject: `${systemName} 密码重置 / Password reset`,
    html: `<p>您好，你正在进行 ${name} 密码重置。</p><p>点击 <a href="${href}">此处</a> 进行密码重置。</p><p>如果链接无法点击，请尝试复制以下链接到浏览器打开：<br>${href}</p><p>重置链接 ${minutes} 分钟内有效，如果不是本人操作，请忽略。</p><hr><p>Open <a href="${href}">this link</a> within ${minutes} minutes to reset your ${name} password.</p>`,
  };
}

/** Sends, turning SMTP trouble into a message for the user (the detail goes to the log only). */
export async function sendOrExplain(mailer: Mailer, logger: Logger, to: string, mail: { subject: string; html: string }): Promise<void> {
  try {
    await mailer.send({ to, ...mail });
  } catch (error) {
    if (error instanceof MailNotConfiguredError) throw new AppError(verificationMessages.mailNotConfigured);
    logger.warn({ err: error }, 'sending mail failed');
    throw new AppError(verificationMessages.mailFailed);
  }
}

export function resetLink(options: OptionStore, email: string, token: string): string {
  const base = options.get('ServerAddress');
  return `${base}/user/reset?email=${encodeURIComponent(email)}&token=${encodeURIComponent(token)}`;
}
