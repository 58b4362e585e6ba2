import { registerRequestSchema } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import { assertValidPassword, assertValidUsername } from '../user/account-fields.ts';
import type { AccountServices } from '../user/account-services.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import { userMessages } from '../user/user.messages.ts';
import { assertEmailAllowed, normaliseEmail } from '../verification/email-rules.ts';
import type { VerificationService } from '../verification/verification.service.ts';
import { verificationMessages } from '../verification/verification.messages.ts';
import { registerMessages } from './register.messages.ts';

/**
 * Registration with a username and password: both switches must be on; with email verification the
 * mailed code is required (and spent only once every other check has passed); an invitation code
 * credits the inviter and the invitee. A published user agreement or privacy policy is accepted in
 * the console (ours asks with a checkbox); as in new-api, the server does not require the body to say
 * so, since new-api's own console never sends `agreed_to_terms` and could sign nobody up.
 */
export async function registerWithPassword(services: AccountServices, verification: VerificationService, body: unknown): Promise<void> {
  const { options } = services;
  if (!options.getBoolean('RegisterEnabled')) throw new AppError(registerMessages.registerDisabled);
  if (!options.getBoolean('PasswordRegisterEnabled')) throw new AppError(registerMessages.passwordRegisterDisabled);
  const input = parseInput(registerRequestSchema, body);
  const username = input.username.trim();
  assertValidUsername(username);
  assertValidPassword(input.password);
  if (input.password2 !== undefined && input.password2 !== input.password) throw new AppError(userMessages.passwordMismatch);

  let email = '';
  if (options.getBoolean('EmailVerificationEnabled')) {
    if (!input.email.trim() || !input.verification_code.trim()) throw new AppError(registerMessages.emailAndCodeRequired);
    email = normaliseEmail(input.email);
    assertEmailAllowed(email, options);
    if (await services.users.findByIdentity('email', email)) throw new AppError(verificationMessages.emailTaken);
  }
  if (await services.users.usernameExists(username)) throw new AppError(userMessages.usernameTaken);
  if (email && !(await verification.consumeEmailCode(email, input.verification_code))) throw new AppError(verificationMessages.codeInvalid);

  const inviterId = await services.creation.inviterIdForCode(input.aff_code);
  await services.creation.create({ username, password: input.password, displayName: username, email, inviterId });
}
