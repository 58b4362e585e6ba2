import { accountLimits } from '@switchboard/contracts';
import { AppError } from '../../http/app-error.ts';
import { userMessages } from './user.messages.ts';

/** Checks shared by registration, user creation and profile edits. Each throws the spec's message. */
export function assertValidUsername(username: string): void {
  if (!username) throw new AppError(userMessages.usernameRequired);
  if ([...username].length > accountLimits.usernameMax) throw new AppError(userMessages.usernameTooLong, { params: { max: accountLimits.usernameMax } });
}

export function assertValidPassword(password: string): void {
  if (password.length < accountLimits.passwordMin) throw new AppError(userMessages.passwordTooShort);
  if (password.length > accountLimits.passwordMax) throw new AppError(userMessages.passwordTooLong);
}

export function assertValidDisplayName(displayName: string): void {
  if ([...displayName].length > accountLimits.displayNameMax) throw new AppError(userMessages.displayNameTooLong, { params: { max: accountLimits.displayNameMax } });
}

export function assertValidGroup(group: string): void {
  if (!group || group.length > accountLimits.groupMax || /[\s,]/.test(group)) throw new AppError(userMessages.groupInvalid);
}
