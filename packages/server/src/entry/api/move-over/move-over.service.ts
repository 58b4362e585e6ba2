import { type MoveOverNotice, moveOverReportSchema } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { MoveOverRepository } from './move-over.repository.ts';

/**
 * The one-time notice about a one-api database opened in place: what migration 0024 mapped, shown to
 * the root until dismissed. Nothing to show on any other database.
 */
export class MoveOverService {
  private readonly repository: MoveOverRepository;
  private readonly clock: Clock;

  constructor(dependencies: { repository: MoveOverRepository; clock: Clock }) {
    this.repository = dependencies.repository;
    this.clock = dependencies.clock;
  }

  async notice(): Promise<MoveOverNotice | null> {
    const origin = await this.repository.origin();
    if (!origin || origin.source !== 'one-api' || Number(origin.mapped_at) === 0 || Number(origin.dismissed_at) > 0) return null;
    const parsed = safeParseJson(origin.report ?? '');
    const report = parsed.ok ? moveOverReportSchema.safeParse(parsed.value) : undefined;
    if (!report?.success) return null;
    return { source: 'one-api', mapped_at: Number(origin.mapped_at), ...report.data };
  }

  async dismiss(): Promise<void> {
    await this.repository.dismiss(this.clock.unixSeconds());
  }
}
