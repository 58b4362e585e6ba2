import { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { verificationMessages } from './verification.messages.ts';

const emailSchema = z.email().max(50);

/** Lower-cased, trimmed address; throws when it is not an email address. */
export function normaliseEmail(raw: string | undefined): string {
  const email = (raw ?? '').trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) throw new AppError(verificationMessages.invalidEmail);
  return email;
}

/**
 * The administrator's email restrictions: the domain must be on EmailDomainWhitelist when
 * EmailDomainRestrictionEnabled, and with EmailAliasRestrictionEnabled the local part may not hold
 * "+" or "." (the usual ways to mint many addresses from one mailbox).
 */
export function assertEmailAllowed(email: string, options: OptionStore): void {
  const at = email.lastIndexOf('@');
  const localPart = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (options.getBoolean('EmailDomainRestrictionEnabled')) {
    const whitelist = options
      .get('EmailDomainWhitelist')
      .split(/[\s,]+/)
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    if (!whitelist.includes(domain)) throw new AppError(verificationMessages.emailDomainNotAllowed);
  }
  if (options.getBoolean('EmailAliasRestrictionEnabled') && /[+.]/.test(localPart)) {
    throw new AppError(verificationMessages.emailAliasNotAllowed);
  }
}
