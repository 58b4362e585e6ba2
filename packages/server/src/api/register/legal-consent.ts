import type { OptionStore } from '../../options/option-store.ts';

/** Whether the administrator published a user agreement (new-api's `legal.user_agreement`). */
export function hasUserAgreement(options: OptionStore): boolean {
  return options.get('legal.user_agreement').trim() !== '';
}

/** Whether the administrator published a privacy policy (new-api's `legal.privacy_policy`). */
export function hasPrivacyPolicy(options: OptionStore): boolean {
  return options.get('legal.privacy_policy').trim() !== '';
}

/**
 * Registering must accept the published documents. The console's checkbox is not enough: a script
 * can post to the route directly, so the server refuses a sign-up that did not say it accepted them.
 */
export function requiresLegalConsent(options: OptionStore): boolean {
  return hasUserAgreement(options) || hasPrivacyPolicy(options);
}
