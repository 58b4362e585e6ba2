import type { Page } from '@switchboard/contracts';
import type { AppContext } from '../../app-context.ts';
import { pageOf } from '../listing/page-query.ts';
import type { LogFilters } from './log-filters.ts';
import { purgeLogsBefore } from './log-purge.ts';
import { logHourlyRepositories } from './log-hourly.repository.ts';
import { LogTotals, type LogStat } from './log-totals.ts';
import { toAdminLogView, toSelfLogView } from './log-view.ts';
import type { LogRepository } from './log.repository.ts';

type AdminLog = ReturnType<typeof toAdminLogView>;
type SelfLog = ReturnType<typeof toSelfLogView>;

export class LogService {
  private readonly repository: LogRepository;
  private readonly hourly: ReturnType<typeof logHourlyRepositories>;
  private readonly totals: LogTotals;
  private readonly context: AppContext;

  constructor(repository: LogRepository, context: AppContext) {
    this.repository = repository;
    this.hourly = logHourlyRepositories(context.logDatabase.db);
    this.totals = new LogTotals(repository, this.hourly);
    this.context = context;
  }

  /** Channel names live in the main database, the logs perhaps elsewhere: one lookup per page. */
  private async channelNames(ids: number[]): Promise<Map<number, string>> {
    const distinct = [...new Set(ids.filter((id) => id > 0))];
    if (distinct.length === 0) return new Map();
    const rows = await this.context.database.db.selectFrom('channels').select(['id', 'name']).where('id', 'in', distinct).execute();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  async adminPage(filters: LogFilters, page: number, pageSize: number): Promise<Page<AdminLog>> {
    const [rows, total] = await Promise.all([this.repository.page(filters, (page - 1) * pageSize, pageSize), this.totals.count(filters)]);
    const names = await this.channelNames(rows.map((row) => Number(row.channel_id)));
    return pageOf(rows.map((row) => toAdminLogView(row, names)), total, page, pageSize);
  }

  async selfPage(filters: LogFilters, page: number, pageSize: number): Promise<Page<SelfLog>> {
    const [rows, total] = await Promise.all([this.repository.page(filters, (page - 1) * pageSize, pageSize), this.totals.count(filters)]);
    return pageOf(rows.map(toSelfLogView), total, page, pageSize);
  }

  stat(filters: LogFilters): Promise<LogStat> {
    return this.totals.stat(filters, this.context.clock.unixSeconds());
  }

  purge(before: number): Promise<number> {
    return purgeLogsBefore({ logs: this.repository, hourly: this.hourly }, before, this.context.clock.unixSeconds());
  }
}
