import type { AdminLogView, LogStat, Page, SelfLogView } from '@switchboard/contracts';
import type { Clock } from '../../platform/clock.ts';
import type { ChannelRepository } from '../channel/channel.repository.ts';
import { pageOf } from '../listing/page-query.ts';
import type { LogFilters } from './log-filters.ts';
import { purgeLogsBefore } from './log-purge.ts';
import type { RepairableHourlyTable } from './log-hourly-rollup.ts';
import { type HourlyTotals, LogTotals } from './log-totals.ts';
import { toAdminLogView, toSelfLogView } from './log-view.ts';
import type { LogRepository } from './log.repository.ts';

export interface LogServiceDependencies {
  readonly repository: LogRepository;
  /** The hourly roll-ups of the log database, the smaller first (see logHourlyRepositories). */
  readonly hourly: ReadonlyArray<HourlyTotals & RepairableHourlyTable>;
  /** Channels live in the main database, the logs perhaps elsewhere. */
  readonly channels: Pick<ChannelRepository, 'namesOf'>;
  readonly clock: Clock;
}

export class LogService {
  private readonly repository: LogRepository;
  private readonly hourly: ReadonlyArray<HourlyTotals & RepairableHourlyTable>;
  private readonly channels: Pick<ChannelRepository, 'namesOf'>;
  private readonly totals: LogTotals;
  private readonly clock: Clock;

  constructor(dependencies: LogServiceDependencies) {
    this.repository = dependencies.repository;
    this.hourly = dependencies.hourly;
    this.channels = dependencies.channels;
    this.totals = new LogTotals(dependencies.repository, dependencies.hourly);
    this.clock = dependencies.clock;
  }

  /** The names of the page's channels: one lookup per page. */
  private channelNames(ids: number[]): Promise<Map<number, string>> {
    return this.channels.namesOf([...new Set(ids.filter((id) => id > 0))]);
  }

  async adminPage(filters: LogFilters, page: number, pageSize: number): Promise<Page<AdminLogView>> {
    const [rows, total] = await Promise.all([this.repository.page(filters, (page - 1) * pageSize, pageSize), this.totals.count(filters)]);
    const names = await this.channelNames(rows.map((row) => Number(row.channel_id)));
    return pageOf(
      rows.map((row) => toAdminLogView(row, names)),
      total,
      page,
      pageSize,
    );
  }

  async selfPage(filters: LogFilters, page: number, pageSize: number): Promise<Page<SelfLogView>> {
    const [rows, total] = await Promise.all([this.repository.page(filters, (page - 1) * pageSize, pageSize), this.totals.count(filters)]);
    return pageOf(rows.map(toSelfLogView), total, page, pageSize);
  }

  stat(filters: LogFilters): Promise<LogStat> {
    return this.totals.stat(filters, this.clock.unixSeconds());
  }

  purge(before: number): Promise<number> {
    return purgeLogsBefore({ logs: this.repository, hourly: this.hourly }, before, this.clock.unixSeconds());
  }
}
