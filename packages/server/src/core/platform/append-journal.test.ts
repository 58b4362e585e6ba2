import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalNames, LiveJournal, OrphanJournal } from './append-journal.ts';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function journalIn(name = 'abc123') {
  const folder = mkdtempSync(join(tmpdir(), 'sb-journal-test-'));
  folders.push(folder);
  const errors: unknown[] = [];
  return { folder, errors, journal: new LiveJournal({ folder, prefix: 'quota-journal', name, onWriteError: (error) => errors.push(error) }) };
}

describe('append journal', () => {
  it('numbers its lines and cannot be adopted while its owner lives', () => {
    const { folder, journal } = journalIn();
    expect([journal.append('a'), journal.append('b'), journal.append('c')]).toEqual([1, 2, 3]);
    expect(journalNames(folder, 'quota-journal')).toEqual(['abc123']);
    expect(OrphanJournal.adopt(folder, 'quota-journal', 'abc123')).toBeUndefined();
    expect(() => new LiveJournal({ folder, prefix: 'quota-journal', name: 'abc123', onWriteError: () => undefined })).toThrow('in use');
    journal.close();
  });

  it('keeps what is not applied for the next start, which reads it back in order and skips a torn line', () => {
    const { folder, journal } = journalIn();
    journal.append('{"q":1}');
    journal.append('{"q":2}');
    expect(journal.close()).toEqual({ removed: false });
    // A write cut short by the kill: no newline, no payload.
    const segment = readdirSync(folder).find((file) => file.endsWith('.log')) ?? '';
    appendFileSync(join(folder, segment), '3\t');

    const orphan = OrphanJournal.adopt(folder, 'quota-journal', 'abc123');
    expect(orphan).toBeDefined();
    const { lines, unreadable } = orphan?.read() ?? { lines: [], unreadable: [] };
    expect(lines.map((line) => [line.seq, line.payload])).toEqual([
      [1, '{"q":1}'],
      [2, '{"q":2}'],
    ]);
    expect(unreadable).toEqual([{ file: join(folder, segment), line: 3 }]);
    orphan?.discard();
    expect(readdirSync(folder)).toEqual([]);
  });

  it('drops segments once applied and removes itself when everything is', () => {
    const { folder, journal } = journalIn();
    journal.append('one');
    journal.append('two');
    journal.applied(2);
    journal.append('three');
    // The applied segment is gone; the new one holds only the third line.
    expect(readdirSync(folder).filter((file) => file.endsWith('.log'))).toHaveLength(1);
    journal.applied(3);
    expect(journal.close()).toEqual({ removed: true });
    expect(readdirSync(folder)).toEqual([]);
  });

  it('writes the lines of one event-loop turn together at its end, and says when they are out', async () => {
    const { folder, journal } = journalIn();
    const segment = join(folder, 'quota-journal.abc123.0.log');
    journal.append('a');
    journal.append('b');
    const written = journal.written();
    // Nothing yet: the answers that wait for these lines have not gone out either.
    expect(readFileSync(segment, 'utf8')).toBe('');
    await written;
    expect(readFileSync(segment, 'utf8')).toBe('1\ta\n2\tb\n');
    // With nothing pending there is nothing to wait for.
    await journal.written();
    journal.append('c');
    await new Promise((resolve) => setImmediate(resolve));
    expect(readFileSync(segment, 'utf8')).toBe('1\ta\n2\tb\n3\tc\n');
    journal.close();
  });

  it('writes pending lines before sealing a segment and before closing', () => {
    const { folder, journal } = journalIn();
    journal.append('one');
    journal.applied(0);
    expect(readFileSync(join(folder, 'quota-journal.abc123.0.log'), 'utf8')).toBe('1\tone\n');
    journal.append('two');
    expect(journal.close()).toEqual({ removed: false });
    expect(readFileSync(join(folder, 'quota-journal.abc123.1.log'), 'utf8')).toBe('2\ttwo\n');
  });

  it('lets the waiting answers go when a write fails, reports the failure once, and goes on in a new segment', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sb-journal-test-'));
    folders.push(folder);
    // The first segment is a full disk: every write to it fails with ENOSPC.
    symlinkSync('/dev/full', join(folder, 'quota-journal.abc123.0.log'));
    const errors: unknown[] = [];
    const journal = new LiveJournal({ folder, prefix: 'quota-journal', name: 'abc123', onWriteError: (error) => errors.push(error) });
    expect({ writable: journal.writable, failedWrites: journal.failedWrites }).toEqual({ writable: true, failedWrites: 0 });
    journal.append('lost');
    await journal.written();
    expect(errors).toEqual([expect.objectContaining({ code: 'ENOSPC' })]);
    // What /metrics tells the operator: not writable, one failed write.
    expect({ writable: journal.writable, failedWrites: journal.failedWrites }).toEqual({ writable: false, failedWrites: 1 });
    journal.append('kept');
    await journal.written();
    expect(errors).toHaveLength(1);
    expect({ writable: journal.writable, failedWrites: journal.failedWrites }).toEqual({ writable: true, failedWrites: 1 });
    expect(readdirSync(folder).filter((file) => file.endsWith('.log'))).toEqual(['quota-journal.abc123.1.log']);
    expect(readFileSync(join(folder, 'quota-journal.abc123.1.log'), 'utf8')).toBe('2\tkept\n');
    journal.close();
  });
});
