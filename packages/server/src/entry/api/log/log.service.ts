import type { AdminLogView, LogStat, Page, SelfLogView } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ChannelRepository } from '../channel/channel.repository.ts';
import type { UserRepository } from '../user/user.repository.ts';
import { pageOf } from '../../../core/http/listing/page-query.ts';
import type { LogFilters } from './log-filters.ts';
import { purgeLogsBefore } from './log-purge.ts';
import type { RepairableHourlyTable } from './log-hourly-rollup.ts';
import { type HourlyTotals, LogTotals } from './log-totals.ts';
import { toAdminLogView, toSelfLogView } from './log-view.ts';
import type { LogRepository, LogRow } from './log.repository.ts';
import { type HourlyPresence, LogPageLocator } from './log-page-locator.ts';

export interface LogServiceDependencies {
  readonly repository: LogRepository;
  /** The roll-up jobs of the log database (hourly and daily), recounted after a purge (see logHourlyRepositories). */
  readonly hourly: readonly RepairableHourlyTable[];
  /** Every roll-up table the pages and totals read, the smallest first (see logHourlyReaders). */
  readonly hourlyReaders: ReadonlyArray<HourlyTotals & HourlyPresence>;
  /** Channels live in the main database, the logs perhaps elsewhere. */
  readonly channels: Pick<ChannelRepository, 'namesOf'>;
  /** Users live in the main database: a username filter is resolved to their ids there. */
  readonly users: Pick<UserRepository, 'idsOfUsername'>;
  readonly clock: Clock;
}

/**
 * The filters with a username resolved to the users' ids (the users table is small; the logs have no
 * username index), or undefined when no user has that name.
 */
export async function withUsernameResolved(filters: LogFilters, users: Pick<UserRepository, 'idsOfUsername'>): Promise<LogFilters | undefined> {
  if (filters.username === undefined || filters.userId !== undefined) return filters;
  const ids = await users.idsOfUsername(filters.username);
  if (ids.length === 0) return undefined;
  // Matched by id alone: checking the name as well costs a row lookup per log of the user (seconds
  // for a heavy one), and the id is what the name means today.
  const { username: _resolved, ...rest } = filters;
  return { ...rest, userIds: ids };
}

export class LogService {
  private readonly repository: LogRepository;
  private readonly hourly: readonly RepairableHourlyTable[];
  private readonly channels: Pick<ChannelRepository, 'namesOf'>;
  private readonly users: Pick<UserRepository, 'idsOfUsername'>;
  private readonly pages: LogPageLocator;
  private readonly totals: LogTotals;
  private readonly clock: Clock;

  constructor(dependencies: LogServiceDependencies) {
    this.repository = dependencies.repository;
    this.hourly = dependencies.hourly;
    this.channels = dependencies.channels;
    this.users = dependencies.users;
    this.pages = new LogPageLocator(dependencies.repository, dependencies.hourlyReaders);
    this.totals = new LogTotals(dependencies.repository, dependencies.hourlyReaders);
    this.clock = dependencies.clock;
  }

  /** The names of the page's channels: one lookup per page. */
  private channelNames(ids: number[]): Promise<Map<number, string>> {
    return this.channels.namesOf([...new Set(ids.filter((id) => id > 0))]);
  }

  /** The page's rows and their total; none for a username no user has. */
  private async rowsAndTotal(filters: LogFilters, page: number, pageSize: number): Promise<[LogRow[], number]> {
    const resolved = await withUsernameResolved(filters, this.users);
    if (!resolved) return [[], 0];
    return Promise.all([this.pages.page(resolved, (page - 1) * pageSize, pageSize), this.totals.count(resolved)]);
  }

  async adminPage(filters: LogFilters, page: number, pageSize: number): Promise<Page<AdminLogView>> {
    const [rows, total] = await this.rowsAndTotal(filters, page, pageSize);
    const names = await this.channelNames(rows.map((row) => Number(row.channel_id)));
    return pageOf(
      rows.map((row) => toAdminLogView(row, names)),
      total,
      page,
      pageSize,
    );
  }

  async selfPage(filters: LogFilters, page: number, pageSize: number): Promise<Page<SelfLogView>> {
    const [rows, total] = await this.rowsAndTotal(filters, page, pageSize);
    return pageOf(rows.map(toSelfLogView), total, page, pageSize);
  }

  async stat(filters: LogFilters): Promise<LogStat> {
    const resolved = await withUsernameResolved(filters, this.users);
    return resolved ? this.totals.stat(resolved, this.clock.unixSeconds()) : { quota: 0, rpm: 0, tpm: 0 };
  }

  purge(before: number): Promise<number> {
    return purgeLogsBefore({ logs: this.repository, hourly: this.hourly }, before, this.clock.unixSeconds());
  }
}
