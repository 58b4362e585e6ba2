import type { TwoFactorChallenge } from '@switchboard/contracts';
import type { StoredUser } from '../../../lib/stored-user.ts';

/** What a login route answers: the user, or (with a second factor set) the challenge to post a code to. */
export type LoginAnswer = (StoredUser & { require_second_factor_enrolment?: boolean }) | TwoFactorChallenge;

export function isTwoFactorChallenge(answer: LoginAnswer): answer is TwoFactorChallenge {
  return 'require_2fa' in answer && answer.require_2fa;
}
