import { Role } from '@switchboard/contracts';
import { AppError } from '../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../core/messages/catalogue.ts';

/**
 * Nobody reads, changes or deletes a user of the same or a higher role; root may act on anyone. Here,
 * below the console API, because budgets/ applies the same rule to the budgets of other users.
 */
export function assertOutranks(actorRole: number, targetRole: number, refusal: LocalizedMessage): void {
  if (actorRole !== Role.root && actorRole <= targetRole) throw new AppError(refusal);
}
