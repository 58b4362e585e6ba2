import { Role } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { exportMessages } from './export.messages.ts';

/** Exports one caller may run at once: one for a user, a few for an administrator (per instance). */
export const exportSlotsPerCaller = { user: 1, admin: 3 };

/**
 * Bounds the CSV exports running at once per caller: every export holds a database reader and a
 * socket for as long as its reader takes, so twenty at once slowed everyone's requests. A caller
 * past the bound is told to wait for the running one (429); the slot is given back when the download
 * ends, however it ends.
 */
export class ExportSlots {
  private readonly running = new Map<number, number>();

  /** Takes a slot for the caller; answers the function that gives it back (safe to call more than once). */
  take(caller: CurrentUser): () => void {
    const limit = caller.role >= Role.admin ? exportSlotsPerCaller.admin : exportSlotsPerCaller.user;
    const count = this.running.get(caller.id) ?? 0;
    if (count >= limit) throw new AppError(exportMessages.busy, { status: 429, params: { limit } });
    this.running.set(caller.id, count + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.running.get(caller.id) ?? 1) - 1;
      if (left > 0) this.running.set(caller.id, left);
      else this.running.delete(caller.id);
    };
  }
}
