import type { Clock } from '../../../core/platform/clock.ts';
import type { ChannelRepository } from '../channel/channel.repository.ts';
import type { LogFilters } from '../log/log-filters.ts';
import type { LogPageLocator } from '../log/log-page-locator.ts';
import type { LogRepository, LogRow } from '../log/log.repository.ts';
import { withUsernameResolved } from '../log/log.service.ts';
import type { UserRepository } from '../user/user.repository.ts';
import { channelExportColumns } from './channel-export-columns.ts';
import { csvChunks } from './csv-writer.ts';
import { exportTime, type ExportLocale } from './export-format.ts';
import type { ExportRepository } from './export.repository.ts';
import { keysetBatches } from './keyset-batches.ts';
import { logBatches } from './log-batches.ts';
import { type LogExportRow, logExportColumns } from './log-export-columns.ts';
import { redemptionExportColumns } from './redemption-export-columns.ts';
import { tokenExportColumns } from './token-export-columns.ts';
import { userExportColumns } from './user-export-columns.ts';

/** A CSV file being written: its download name and its text, produced as the reader takes it. */
export interface ExportFile {
  filename: string;
  chunks: AsyncIterable<string>;
}

export interface ExportServiceDependencies {
  readonly repository: ExportRepository;
  /** Logs may live in their own database (LOG_SQL_DSN). */
  readonly logs: LogRepository;
  /** The time ranges that hold a model's, channel's or group's logs, from the hourly roll-ups. */
  readonly logRanges: Pick<LogPageLocator, 'ranges'>;
  /** Channels live in the main database: their names are looked up per batch of logs. */
  readonly channels: Pick<ChannelRepository, 'namesOf'>;
  /** Users live in the main database: a username filter is resolved to their ids there, as the log page does. */
  readonly users: Pick<UserRepository, 'idsOfUsername'>;
  readonly clock: Clock;
  /** Rows per database read; small enough that one batch is a few hundred kilobytes of CSV. */
  readonly batchSize?: number;
}

const defaultBatchSize = 1000;

/** CSV exports of the console's tables, every matching row, read in keyset batches and never held whole. */
export class ExportService {
  private readonly dependencies: ExportServiceDependencies;
  private readonly batchSize: number;

  constructor(dependencies: ExportServiceDependencies) {
    this.dependencies = dependencies;
    this.batchSize = dependencies.batchSize ?? defaultBatchSize;
  }

  private filename(table: string, locale: ExportLocale): string {
    const stamp = exportTime(this.dependencies.clock.unixSeconds(), locale).replaceAll('-', '').replace(' ', '-').replaceAll(':', '');
    return `${table}-${stamp}.csv`;
  }

  private byId<Row extends { id: number }>(read: (afterId: number, limit: number) => Promise<Row[]>): AsyncGenerator<Row[]> {
    return keysetBatches(
      (after: number | undefined, limit) => read(after ?? 0, limit),
      (row) => row.id,
      this.batchSize,
    );
  }

  /** The log page's rows for these filters (all pages, newest first); channel columns for administrators. */
  logs(filters: LogFilters, locale: ExportLocale, admin: boolean): ExportFile {
    const { logs, logRanges, channels, users } = this.dependencies;
    const batchSize = this.batchSize;
    // A username is read through the users' `(user_id, created_at)` index (the logs have no username
    // index since 0032: matching the name walked every log newest first); no such user, no rows.
    async function* rows(): AsyncGenerator<LogRow[]> {
      const resolved = await withUsernameResolved(filters, users);
      if (resolved) yield* logBatches(resolved, logRanges, logs, batchSize);
    }
    async function* withChannelNames(): AsyncGenerator<LogExportRow[]> {
      for await (const batch of rows()) {
        const ids = admin ? [...new Set(batch.map((row) => Number(row.channel_id)).filter((id) => id > 0))] : [];
        const names = await channels.namesOf(ids);
        yield batch.map((log) => ({ log, channelName: names.get(Number(log.channel_id)) ?? '' }));
      }
    }
    return { filename: this.filename('logs', locale), chunks: csvChunks(logExportColumns(locale, admin), withChannelNames()) };
  }

  users(locale: ExportLocale): ExportFile {
    const { repository } = this.dependencies;
    return {
      filename: this.filename('users', locale),
      chunks: csvChunks(
        userExportColumns(locale),
        this.byId((after, limit) => repository.users(after, limit)),
      ),
    };
  }

  channels(locale: ExportLocale): ExportFile {
    const { repository } = this.dependencies;
    return {
      filename: this.filename('channels', locale),
      chunks: csvChunks(
        channelExportColumns(locale),
        this.byId((after, limit) => repository.channels(after, limit)),
      ),
    };
  }

  /** The caller's own tokens, keys masked. */
  tokens(userId: number, locale: ExportLocale): ExportFile {
    const { repository } = this.dependencies;
    return {
      filename: this.filename('tokens', locale),
      chunks: csvChunks(
        tokenExportColumns(locale),
        this.byId((after, limit) => repository.tokens(userId, after, limit)),
      ),
    };
  }

  redemptions(locale: ExportLocale): ExportFile {
    const { repository } = this.dependencies;
    return {
      filename: this.filename('redemptions', locale),
      chunks: csvChunks(
        redemptionExportColumns(locale),
        this.byId((after, limit) => repository.redemptions(after, limit)),
      ),
    };
  }
}
