import { accountLimits, type SetupRequest, type SetupState } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { hashPassword } from '../../../core/platform/password-hasher.ts';
import { assertValidPassword, namePatch } from '../user/account-fields.ts';
import type { UserPatch, UserRepository } from '../user/user.repository.ts';
import type { SetupRepository } from './setup.repository.ts';
import { setupMessages } from './setup.messages.ts';

export interface SetupDependencies {
  readonly setups: SetupRepository;
  readonly users: UserRepository;
  readonly options: OptionStore;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  readonly databaseType: string;
}

/**
 * new-api's first-run setup, on a database whose root account a first start created (root/123456 or
 * INITIAL_ROOT_PASSWORD): the root, logged in, picks its name and a new password and the use mode.
 * The first channel is added through the channel routes, as anywhere else.
 */
export class SetupService {
  private readonly dependencies: SetupDependencies;

  constructor(dependencies: SetupDependencies) {
    this.dependencies = dependencies;
  }

  async state(): Promise<SetupState> {
    return { status: !(await this.dependencies.setups.isPending()), root_init: true, database_type: this.dependencies.databaseType };
  }

  /** Everything is checked before anything is written; only the first of two racing setups writes. */
  async complete(rootId: number, currentSessionId: string | undefined, input: SetupRequest): Promise<void> {
    const { setups, users, options, bus, clock } = this.dependencies;
    if (!(await setups.isPending())) throw new AppError(setupMessages.alreadyDone);
    if (input.username !== undefined && [...input.username].length > accountLimits.usernameMax) throw new AppError(setupMessages.usernameTooLong);
    if (input.password !== input.confirmPassword) throw new AppError(setupMessages.passwordsDiffer);
    if (input.password.length < accountLimits.passwordMin) throw new AppError(setupMessages.passwordTooShort);
    assertValidPassword(input.password);
    const root = await users.findById(rootId);
    if (!root) throw new AppError(setupMessages.alreadyDone);
    const patch: UserPatch = await namePatch(root, { username: input.username || undefined }, users);
    patch.password = await hashPassword(input.password);

    if (!(await setups.markDone('switchboard', clock.unixSeconds()))) throw new AppError(setupMessages.alreadyDone);
    await users.update(rootId, patch);
    await users.deleteOtherSessions(rootId, currentSessionId);
    await bus.publish(changeTopics.users, String(rootId));
    await options.set('SelfUseModeEnabled', String(input.SelfUseModeEnabled));
    if (input.DemoSiteEnabled !== undefined) await options.set('DemoSiteEnabled', String(input.DemoSiteEnabled));
  }
}
