import { accountLimits } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import type { UserPatch, UserRepository, UserRow } from './user.repository.ts';
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
  if ([...displayName].length > accountLimits.displayNameMax)
    throw new AppError(userMessages.displayNameTooLong, { params: { max: accountLimits.displayNameMax } });
}

export function assertValidGroup(group: string): void {
  if (!group || group.length > accountLimits.groupMax || /[\s,]/.test(group)) throw new AppError(userMessages.groupInvalid);
}

/**
 * The username and display-name part of a profile edit (by the user or an administrator): a new
 * username must be valid and free; an emptied display name falls back to the username.
 */
export async function namePatch(
  user: UserRow,
  input: { username?: string | undefined; display_name?: string | undefined },
  users: Pick<UserRepository, 'usernameExists'>,
): Promise<UserPatch> {
  const patch: UserPatch = {};
  if (input.username !== undefined && input.username.trim() !== user.username) {
    const username = input.username.trim();
    assertValidUsername(username);
    if (await users.usernameExists(username)) throw new AppError(userMessages.usernameTaken);
    patch.username = username;
  }
  if (input.display_name !== undefined) {
    assertValidDisplayName(input.display_name.trim());
    patch.display_name = input.display_name.trim() || user.username;
  }
  return patch;
}
