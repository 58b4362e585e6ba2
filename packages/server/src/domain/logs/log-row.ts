import { z } from 'zod';
import type { NewLogRow } from '../../core/db/log-schema.ts';

/** A log row: who and what kind are required, every other column defaults to empty or zero. */
export type LogEntry = Pick<NewLogRow, 'user_id' | 'type'> & Partial<NewLogRow>;

export type CompleteLogRow = Required<NewLogRow>;

/** One value of a log row, in `logColumns` order. */
export type LogValue = string | number | null;

/** The columns a log row is written with, in the order of its values (`logRowValues`, `logRowSchema`). */
export const logColumns = [
  'user_id',
  'type',
  'created_at',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'token_id',
  'group',
  'ip',
  'request_id',
  'other',
] as const satisfies ReadonlyArray<keyof CompleteLogRow>;
// logRowValues and logRowSchema (below) follow this order: a column added here is added there too.

/**
 * A log row waiting to be written, as the JSON text of its values in `logColumns` order. A charge's
 * row is made into this once, when it is settled: the quota journal's line carries it as it is, the
 * queue keeps it as one flat string (not an object of 18 fields that lives through several
 * collections until the next flush), and the SQLite writer's batch is built from it.
 */
export type LogRowText = string;

/**
 * A log row's values in `logColumns` order, an absent column as its default: read straight off the
 * entry, with no object of defaults spread under it and no array mapped from that per row.
 */
export function logRowValues(entry: LogEntry, now: number): LogValue[] {
  return [
    entry.user_id,
    entry.type,
    entry.created_at ?? now,
    // content and other are the nullable columns: an explicit null stays NULL, as it always did.
    entry.content === undefined ? '' : entry.content,
    entry.username ?? '',
    entry.token_name ?? '',
    entry.model_name ?? '',
    entry.quota ?? 0,
    entry.prompt_tokens ?? 0,
    entry.completion_tokens ?? 0,
    entry.use_time ?? 0,
    entry.is_stream ?? 0,
    entry.channel_id ?? 0,
    entry.token_id ?? 0,
    entry.group ?? '',
    entry.ip ?? '',
    entry.request_id ?? '',
    entry.other === undefined ? '' : entry.other,
  ];
}

/** The row's text; `now` (unix seconds) stands in for an absent `created_at`. */
export function logRowText(entry: LogEntry, now: number): LogRowText {
  return JSON.stringify(logRowValues(entry, now));
}

const count = z.number().finite();
const text = z.string();
/** A row's values as they must be to be inserted: read back from a journal, nothing else passes. */
const logRowSchema = z.tuple([
  z.number().int(),
  z.number().int(),
  count,
  text.nullable(),
  text,
  text,
  text,
  count,
  count,
  count,
  count,
  count,
  count,
  count,
  text,
  text,
  text,
  text.nullable(),
]);

/** A row's values read back from outside (a journal line), or undefined when they are not a log row. */
export function checkedLogRowText(values: unknown): LogRowText | undefined {
  const checked = logRowSchema.safeParse(values);
  return checked.success ? JSON.stringify(checked.data) : undefined;
}
