import { closeSync, openSync, readdirSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as atEndOfTurn } from 'node:timers';
import { ExclusiveFileLock } from './exclusive-file-lock.ts';

/**
 * An append-only journal of numbered lines in a folder, owned by one process at a time:
 * `<prefix>.<name>.lock` (held while the owner lives, see ExclusiveFileLock) and segments
 * `<prefix>.<name>.<segment>.log`, one line each `<seq>\t<payload>\n`.
 *
 * Lines are written in groups: every line appended during one turn of the event loop goes out in
 * one write syscall at its end (`setImmediate`), and `written()` tells a caller when its line is out,
 * so an answer can wait for its record (a group commit: the cost of the syscall is shared by every
 * request that finished in that turn). There is no fsync: a killed process (kill -9, an out-of-memory
 * kill) does not lose what it wrote, the kernel's page cache still has it; only a power cut or a
 * kernel crash could, and those take the machine's database writes with them too.
 */

/** Where a line is: its file and 1-based line number (for reports about unreadable lines). */
export interface LinePlace {
  readonly file: string;
  readonly line: number;
}

/** A line read back: its sequence number and payload. */
export interface JournalLine extends LinePlace {
  readonly seq: number;
  readonly payload: string;
}

/**
 * How far journal `journal` is applied in one database (its highest applied sequence): written in
 * the same transaction as the writes it covers, so a replay skips exactly those.
 */
export interface JournalMark {
  readonly journal: string;
  readonly seq: number;
}

const namePattern = /^[a-z0-9]{1,64}$/;

function lockPath(folder: string, prefix: string, name: string): string {
  return join(folder, `${prefix}.${name}.lock`);
}

function segmentPath(folder: string, prefix: string, name: string, segment: number): string {
  return join(folder, `${prefix}.${name}.${segment}.log`);
}

/** The segment numbers of a journal on disk, oldest first. */
function segmentsOnDisk(folder: string, prefix: string, name: string): number[] {
  const start = `${prefix}.${name}.`;
  return readdirSync(folder)
    .filter((file) => file.startsWith(start) && file.endsWith('.log'))
    .map((file) => Number(file.slice(start.length, -'.log'.length)))
    .filter((segment) => Number.isSafeInteger(segment) && segment >= 0)
    .sort((a, b) => a - b);
}

/** The names of the journals with a file in `folder` (live or left behind). */
export function journalNames(folder: string, prefix: string): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(folder)) {
    if (!file.startsWith(`${prefix}.`)) continue;
    const name = file.slice(prefix.length + 1).split('.')[0] ?? '';
    if (namePattern.test(name)) names.add(name);
  }
  return [...names];
}

interface Segment {
  readonly number: number;
  /** Highest sequence written into it (0 while empty). */
  lastSeq: number;
}

/** The journal this process writes. */
export class LiveJournal {
  readonly name: string;
  private readonly folder: string;
  private readonly prefix: string;
  private readonly lock: ExclusiveFileLock;
  private readonly onWriteError: (error: unknown) => void;
  private current: Segment;
  private fd: number;
  private sealed: Segment[] = [];
  private seq = 0;
  private appliedSeq = 0;
  /** Lines appended this turn, not yet written, and the highest sequence among them. */
  private pendingLines = '';
  private pendingSeq = 0;
  private writeScheduled = false;
  /** Settles when the pending lines are written (or their write failed); made on demand. */
  private pendingWritten: PromiseWithResolvers<void> | undefined;
  /** Set after a failed or partial write: the next append starts a new segment, so a torn line stays last in its file. */
  private broken = false;
  /** A failure was reported and nothing has succeeded since (one report per failure spell). */
  private failing = false;
  private closed = false;
  /** Writes of pending lines that failed (a full disk, a folder gone), for /metrics. */
  private failedWriteCount = 0;

  /** Creates journal `name` in `folder` (which must exist); throws when its lock is held. */
  constructor(options: { folder: string; prefix: string; name: string; onWriteError: (error: unknown) => void }) {
    if (!namePattern.test(options.name)) throw new Error(`invalid journal name "${options.name}"`);
    this.folder = options.folder;
    this.prefix = options.prefix;
    this.name = options.name;
    this.onWriteError = options.onWriteError;
    const lock = ExclusiveFileLock.tryAcquire(lockPath(this.folder, this.prefix, this.name));
    if (!lock) throw new Error(`journal ${this.name} is in use by another process`);
    this.lock = lock;
    this.current = { number: 0, lastSeq: 0 };
    this.fd = this.open(0);
  }

  /** False from a failed write until a write succeeds again: records made meanwhile are in memory only. */
  get writable(): boolean {
    return !this.failing;
  }

  get failedWrites(): number {
    return this.failedWriteCount;
  }

  /** Highest sequence appended so far. */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Appends one line (the payload must hold no newline) and returns its sequence number. The line is
   * written at the end of this turn of the event loop; `written()` says when.
   */
  append(payload: string): number {
    if (this.closed) return 0;
    const seq = (this.seq += 1);
    this.pendingLines += `${seq}\t${payload}\n`;
    this.pendingSeq = seq;
    if (!this.writeScheduled) {
      this.writeScheduled = true;
      atEndOfTurn(() => this.writePending());
    }
    return seq;
  }

  /**
   * Settles once every line appended so far is written to the kernel (or its write failed, which
   * was reported: the records then live on in memory only, as they would without a journal).
   */
  written(): Promise<void> {
    if (!this.pendingLines) return Promise.resolve();
    this.pendingWritten ??= Promise.withResolvers<void>();
    return this.pendingWritten.promise;
  }

  /** Writes the pending lines now, in one syscall. */
  writePending(): void {
    this.writeScheduled = false;
    const waiting = this.pendingWritten;
    this.pendingWritten = undefined;
    const lines = this.pendingLines;
    this.pendingLines = '';
    // After a failed write, never append behind a possibly torn line: a new segment, or nothing.
    if (lines && (!this.broken || this.rotate())) this.write(lines, this.pendingSeq);
    else if (lines) this.failedWriteCount += 1;
    waiting?.resolve();
  }

  private write(lines: string, lastSeq: number): void {
    const bytes = Buffer.from(lines);
    try {
      const written = writeSync(this.fd, bytes);
      if (written !== bytes.length) throw new Error(`short write to the journal (${written} of ${bytes.length} bytes)`);
      this.current.lastSeq = lastSeq;
      this.failing = false;
    } catch (error) {
      this.failedWriteCount += 1;
      this.fail(error);
      this.broken = true;
    }
  }

  /**
   * Every record up to `seq` is applied where it belongs: segments holding only such records are
   * deleted, and a segment with records is closed for appends (so it can go once applied).
   */
  applied(seq: number): void {
    if (this.closed) return;
    // Lines still pending belong in the segment being sealed (they are applied, or will be replayed).
    this.writePending();
    this.appliedSeq = Math.max(this.appliedSeq, seq);
    if (this.current.lastSeq > 0) this.rotate();
    this.sealed = this.sealed.filter((segment) => {
      if (segment.lastSeq > this.appliedSeq) return true;
      try {
        rmSync(segmentPath(this.folder, this.prefix, this.name, segment.number), { force: true });
      } catch (error) {
        // Left on disk it is harmless: a replay skips what the watermarks say is applied.
        this.fail(error);
      }
      return false;
    });
  }

  /** Stops appending. Fully applied, the journal is removed; otherwise it stays for the next start to replay. */
  close(): { removed: boolean } {
    if (this.closed) return { removed: false };
    this.writePending();
    this.closed = true;
    closeSync(this.fd);
    const removed = this.seq <= this.appliedSeq;
    if (removed) removeJournalFiles(this.folder, this.prefix, this.name);
    this.lock.release();
    return { removed };
  }

  private fail(error: unknown): void {
    if (!this.failing) this.onWriteError(error);
    this.failing = true;
  }

  private open(segment: number): number {
    return openSync(segmentPath(this.folder, this.prefix, this.name, segment), 'a');
  }

  /** Starts the next segment; false when it cannot be created. */
  private rotate(): boolean {
    const next = this.current.number + 1;
    let fd: number;
    try {
      fd = this.open(next);
    } catch (error) {
      this.fail(error);
      return false;
    }
    closeSync(this.fd);
    if (this.current.lastSeq > 0) this.sealed.push(this.current);
    else rmSync(segmentPath(this.folder, this.prefix, this.name, this.current.number), { force: true });
    this.current = { number: next, lastSeq: 0 };
    this.fd = fd;
    this.broken = false;
    return true;
  }
}

function removeJournalFiles(folder: string, prefix: string, name: string): void {
  for (const segment of segmentsOnDisk(folder, prefix, name)) rmSync(segmentPath(folder, prefix, name, segment), { force: true });
  // The lock file last: while it exists, a starting process sees the journal as someone's.
  rmSync(lockPath(folder, prefix, name), { force: true });
}

/** A journal whose owner is gone, locked by this process to replay it. */
export class OrphanJournal {
  readonly name: string;
  private readonly folder: string;
  private readonly prefix: string;
  private readonly lock: ExclusiveFileLock;

  private constructor(folder: string, prefix: string, name: string, lock: ExclusiveFileLock) {
    this.folder = folder;
    this.prefix = prefix;
    this.name = name;
    this.lock = lock;
  }

  /** Locks journal `name`, or returns undefined while its owner (or another adopter) lives. */
  static adopt(folder: string, prefix: string, name: string): OrphanJournal | undefined {
    if (!namePattern.test(name)) return undefined;
    const lock = ExclusiveFileLock.tryAcquire(lockPath(folder, prefix, name));
    return lock ? new OrphanJournal(folder, prefix, name, lock) : undefined;
  }

  /** Every readable line, in order; lines that are torn (a write cut short) or garbled are listed apart. */
  read(): { lines: JournalLine[]; unreadable: LinePlace[] } {
    const lines: JournalLine[] = [];
    const unreadable: LinePlace[] = [];
    for (const segment of segmentsOnDisk(this.folder, this.prefix, this.name)) {
      const file = segmentPath(this.folder, this.prefix, this.name, segment);
      const texts = readFileSync(file, 'utf8').split('\n');
      // A complete file ends with a newline: its last piece is empty.
      if (texts.at(-1) === '') texts.pop();
      texts.forEach((text, index) => {
        const tab = text.indexOf('\t');
        const seq = tab > 0 ? Number(text.slice(0, tab)) : Number.NaN;
        if (Number.isSafeInteger(seq) && seq > 0 && tab < text.length - 1) lines.push({ seq, payload: text.slice(tab + 1), file, line: index + 1 });
        else unreadable.push({ file, line: index + 1 });
      });
    }
    return { lines, unreadable };
  }

  /** Deletes the journal once everything in it is applied, and lets go of it. */
  discard(): void {
    removeJournalFiles(this.folder, this.prefix, this.name);
    this.lock.release();
  }

  /** Lets go of the journal and keeps its files (replay failed: the next start tries again). */
  release(): void {
    this.lock.release();
  }
}
