import { setImmediate as endOfTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { BundledMessage, WorkerMessage } from './cluster-messages.ts';
import { PrimaryLink, type PrimaryChannel } from './primary-link.ts';

/** A channel that records what the worker would write to its primary. */
function recordingChannel(): PrimaryChannel & { sent: WorkerMessage[] } {
  const sent: WorkerMessage[] = [];
  return { sent, connected: () => true, send: (message) => void sent.push(message), onMessage: () => undefined, onDisconnect: () => undefined };
}

const report = (key: string, spent: number): BundledMessage => ({ sb: 'spend', id: 0, op: 'report', key, report: { generation: 1, spent, released: 0 } });
const settle = (now: number): BundledMessage => ({ sb: 'limit', id: 0, op: 'settle', changes: [], now });

describe('the link from a worker to its primary', () => {
  it('sends the answerless messages of one turn as one message, in their order, at its end', async () => {
    const channel = recordingChannel();
    const link = new PrimaryLink(channel);
    link.sendSoon(report('t:1', 10));
    link.sendSoon(report('u:1', 10));
    link.sendSoon(settle(5));
    expect(channel.sent).toEqual([]);
    await endOfTurn();
    expect(channel.sent).toEqual([{ sb: 'bundle', messages: [report('t:1', 10), report('u:1', 10), settle(5)] }]);
  });

  it('sends a lone one as itself, and nothing more at the end of a turn with none', async () => {
    const channel = recordingChannel();
    const link = new PrimaryLink(channel);
    link.sendSoon(report('t:1', 10));
    await endOfTurn();
    await endOfTurn();
    expect(channel.sent).toEqual([report('t:1', 10)]);
  });

  it('sends the waiting ones before anything sent after them: the primary sees every message in the order it was made', async () => {
    const channel = recordingChannel();
    const link = new PrimaryLink(channel);
    link.sendSoon(report('t:1', 10));
    link.sendSoon(report('u:1', 10));
    // A batch for the database must reach the primary after the reports of the charges it holds.
    void link.request((id) => ({ sb: 'batch', id, path: 'main.db', statements: '[]' }), Number.POSITIVE_INFINITY);
    link.send({ sb: 'spend', id: 0, op: 'adjust', key: 'u:1', delta: 5 });
    link.sendSoon(report('t:1', 3));
    expect(channel.sent).toEqual([
      { sb: 'bundle', messages: [report('t:1', 10), report('u:1', 10)] },
      { sb: 'batch', id: 1, path: 'main.db', statements: '[]' },
      { sb: 'spend', id: 0, op: 'adjust', key: 'u:1', delta: 5 },
    ]);
    await endOfTurn();
    expect(channel.sent.at(-1)).toEqual(report('t:1', 3));
    expect(channel.sent).toHaveLength(4);
  });
});
