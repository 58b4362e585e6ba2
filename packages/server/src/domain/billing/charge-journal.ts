import { z } from 'zod';
import { checkedLogRowText, logRowText, type LogRowText } from '../logs/log-row.ts';
import type { LiveJournal } from '../../core/platform/append-journal.ts';
import { safeParseJson } from '../../core/platform/safe-json.ts';

/** File names of the quota journal: `quota-journal.<name>.lock` and `quota-journal.<name>.<n>.log`. */
export const chargeJournalPrefix = 'quota-journal';

/**
 * Where the ledger records a settled charge before its answer completes (write-ahead), so that a
 * process killed before the flusher wrote the charge loses nothing: the next start replays it.
 * Returns the record's sequence number (0 when nothing is journaled).
 */
export interface ChargeRecorder {
  record(tokenId: number, userId: number, channelId: number, quota: number, row: LogRowText | undefined): number;
  /** Settles once every record made so far is written (an answer waits for this before its last bytes). */
  written(): Promise<void>;
}

/** One settled charge read back from a journal: its quota movement and its consume log row. */
export interface JournaledCharge {
  readonly seq: number;
  readonly tokenId: number;
  readonly userId: number;
  readonly channelId: number;
  readonly quota: number;
  readonly row: LogRowText | undefined;
}

/** The journal this process appends its charges to; `name` keys its watermarks in the databases. */
export class ChargeJournal implements ChargeRecorder {
  private readonly journal: LiveJournal;

  constructor(journal: LiveJournal) {
    this.journal = journal;
  }

  get name(): string {
    return this.journal.name;
  }

  /** False while charges cannot be written to the journal (see LiveJournal.writable). */
  get writable(): boolean {
    return this.journal.writable;
  }

  get failedWrites(): number {
    return this.journal.failedWrites;
  }

  /**
   * One compact line, `{"t":…,"u":…,"c":…,"q":…,"r":[…]}`: the row's text goes in as it is, so a
   * charge is stringified once. The lines of one event-loop turn share one write.
   */
  record(tokenId: number, userId: number, channelId: number, quota: number, row: LogRowText | undefined): number {
    // Integers and a finite quota print as JSON does; a quota that is not finite leaves an unreadable
    // line, reported at replay, as the null JSON.stringify made of it did.
    const charge = `{"t":${tokenId},"u":${userId},"c":${channelId},"q":${quota}`;
    return this.journal.append(row === undefined ? `${charge}}` : `${charge},"r":${row}}`);
  }

  written(): Promise<void> {
    return this.journal.written();
  }

  /** Everything up to `seq` is in the databases (quota and log rows): segments holding only that can go. */
  applied(seq: number): void {
    this.journal.applied(seq);
  }

  /** Removes the journal when everything in it is applied; otherwise it stays for the next start. */
  close(): { removed: boolean } {
    return this.journal.close();
  }
}

const text = z.string().nullish();
const count = z.number().finite().optional();
/**
 * The log row of a line written before rows were kept as text (`l`, an object of its columns): such
 * a journal, left by an older version, still replays. Anything else in it is dropped, never inserted.
 */
const logObject = z.object({
  user_id: z.number().int(),
  type: z.number().int(),
  created_at: count,
  content: text,
  username: z.string().optional(),
  token_name: z.string().optional(),
  model_name: z.string().optional(),
  quota: count,
  prompt_tokens: count,
  completion_tokens: count,
  use_time: count,
  is_stream: count,
  channel_id: count,
  token_id: count,
  group: z.string().optional(),
  ip: z.string().optional(),
  request_id: z.string().optional(),
  other: text,
});
const charge = z.object({
  t: z.number().int(),
  u: z.number().int(),
  c: z.number().int(),
  q: z.number().finite(),
  r: z.unknown().optional(),
  l: logObject.optional(),
});

/**
 * A journal line's payload as a charge, or undefined when it is not one (a garbled line, a row that
 * is not a log row). `now` (unix seconds) stands in for an absent `created_at` of an older line.
 */
export function decodeCharge(seq: number, payload: string, now: number): JournaledCharge | undefined {
  const parsed = safeParseJson(payload);
  if (!parsed.ok) return undefined;
  const checked = charge.safeParse(parsed.value);
  if (!checked.success) return undefined;
  const { t, u, c, q, r, l } = checked.data;
  const row = r !== undefined ? checkedLogRowText(r) : l !== undefined ? logRowText(l, now) : undefined;
  if (r !== undefined && row === undefined) return undefined;
  return { seq, tokenId: t, userId: u, channelId: c, quota: q, row };
}
