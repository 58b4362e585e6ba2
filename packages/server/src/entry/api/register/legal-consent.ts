import type { OptionStore } from '../../../domain/options/option-store.ts';

/** Whether the administrator published a user agreement (new-api's `legal.user_agreement`). */
export function hasUserAgreement(options: OptionStore): boolean {
  return options.get('legal.user_agreement').trim() !== '';
}

/** Whether the administrator published a privacy policy (new-api's `legal.privacy_policy`). */
export function hasPrivacyPolicy(options: OptionStore): boolean {
  return options.get('legal.privacy_policy').trim() !== '';
}
