import { afterEach, describe, expect, it, vi } from 'vitest';
import { changeConfirmTimeoutMs } from '../../core/platform/change-bus.ts';
import { capturedLogger } from '../../testing/captured-logger.ts';
import type { ChangeMessage } from './change-messages.ts';
import { PrimaryChangeRelay, type ChangeRecipient } from './primary-change-relay.ts';

/** A worker that records what the primary sends it. */
function worker(id: number): ChangeRecipient & { received: ChangeMessage[] } {
  const received: ChangeMessage[] = [];
  return { id, pid: 4000 + id, received, send: (message) => void received.push(message) };
}

/** How long, in milliseconds, the repeat took to answer. */
async function timed(repeat: Promise<void>): Promise<number> {
  const started = performance.now();
  await repeat;
  return performance.now() - started;
}

describe('the primary repeating a change to the workers', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers once every worker has confirmed, not before', async () => {
    const { logger, lines } = capturedLogger();
    const relay = new PrimaryChangeRelay(logger, 5_000);
    const [first, second] = [worker(1), worker(2)];
    relay.subscribed(first);
    relay.subscribed(second);
    let answered = false;
    const repeat = relay.repeat('tokens', '7', true).then(() => (answered = true));
    expect(first.received).toEqual([{ sb: 'change', id: 1, topic: 'tokens', payload: '7' }]);
    expect(second.received).toEqual(first.received);
    relay.applied(1, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBe(false);
    relay.applied(2, 1);
    await repeat;
    expect(answered).toBe(true);
    expect(lines).toEqual([]);
  });

  it('waits for a worker that is slow on a loaded machine, well past the 1 s allowed between instances', async () => {
    vi.useFakeTimers();
    const { logger, lines } = capturedLogger();
    const relay = new PrimaryChangeRelay(logger);
    const [quick, slow] = [worker(1), worker(2)];
    relay.subscribed(quick);
    relay.subscribed(slow);
    let answered = false;
    const repeat = relay.repeat('tokens', '7', true).then(() => (answered = true));
    relay.applied(1, 1);
    // The console must not answer while the slow worker still serves the old row.
    await vi.advanceTimersByTimeAsync(changeConfirmTimeoutMs + 1_500);
    expect(answered).toBe(false);
    relay.applied(2, 1);
    await repeat;
    expect(lines).toEqual([]);
  });

  it('answers after the time allowed when a worker stays silent, naming it in a warning', async () => {
    const { logger, lines } = capturedLogger();
    const relay = new PrimaryChangeRelay(logger, 150);
    const [speaks, silent] = [worker(1), worker(2)];
    relay.subscribed(speaks);
    relay.subscribed(silent);
    const repeat = relay.repeat('channels', '*', true);
    relay.applied(1, 1);
    const elapsed = await timed(repeat);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1_000);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40, topic: 'channels', pids: [4002] });
    // The next change still goes to the silent worker (it may only have been slow).
    void relay.repeat('channels', '1', false);
    expect(silent.received.at(-1)).toEqual({ sb: 'change', topic: 'channels', payload: '1' });
  });

  it('stops waiting for a worker that exits meanwhile, and sends it nothing more', async () => {
    const { logger, lines } = capturedLogger();
    const relay = new PrimaryChangeRelay(logger, 5_000);
    const [stays, exits] = [worker(1), worker(2)];
    relay.subscribed(stays);
    relay.subscribed(exits);
    const repeat = relay.repeat('users', '3', true);
    relay.applied(1, 1);
    setTimeout(() => relay.gone(2), 30);
    expect(await timed(repeat)).toBeLessThan(1_000);
    expect(lines).toEqual([]);
    const next = relay.repeat('users', '4', true);
    relay.applied(1, 2);
    await next;
    expect(exits.received).toHaveLength(1);
    expect(stays.received).toHaveLength(2);
  });

  it('answers at once when no worker applies changes yet, and takes a failed send for a gone worker', async () => {
    const relay = new PrimaryChangeRelay(capturedLogger().logger, 5_000);
    expect(await timed(relay.repeat('options', 'SystemName', true))).toBeLessThan(100);
    relay.subscribed({
      id: 9,
      pid: 4009,
      send: () => {
        throw new Error('channel closed');
      },
    });
    expect(await timed(relay.repeat('options', 'SystemName', true))).toBeLessThan(100);
  });

  it('ignores a confirmation for a change it no longer waits for', async () => {
    const relay = new PrimaryChangeRelay(capturedLogger().logger, 5_000);
    const one = worker(1);
    relay.subscribed(one);
    relay.applied(1, 99);
    const repeat = relay.repeat('tokens', '1', true);
    relay.applied(1, 1);
    relay.applied(1, 1);
    expect(await timed(repeat)).toBeLessThan(100);
  });
});
