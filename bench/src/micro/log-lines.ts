/**
 * CPU per line of the process log: the access line every relay request writes at `info`, written as
 * the gateway writes it (`createAccessLog`'s text to the logger's destination, 32 lines per event-loop
 * turn as 32 connections finish), through pino's own destination (sonic-boom, text mode) and through
 * ours (`bufferedLogDestination`: sonic-boom's buffer mode), both in 8 KB blocks to /dev/null. Turns of
 * the two, best of each; the line's own text is measured alone beside them.
 *
 *   node bench/src/micro/log-lines.ts [--lines=300000] [--turns=3]
 */
import { openSync } from 'node:fs';
import pino from 'pino';
import { bufferedLogDestination } from '../../../packages/server/src/core/platform/buffered-log-destination.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const lines = Number(options.get('--lines') ?? 300_000);
const turns = Number(options.get('--turns') ?? 3);
const blockBytes = 8192;
const linesPerTurn = 32;

/** The access line of request `index`, as access-log.ts writes it. */
function accessLine(index: number): string {
  return `{"level":30,"time":${Date.now()},"service":"switchboard","reqId":${JSON.stringify(`20261129010546${index}`)},"method":"POST","url":"/v1/chat/completions","status":200,"ms":4,"msg":"request"}\n`;
}

type Sink = (line: string) => void;

/** Nanoseconds of this process's CPU per line, writing `lines` lines in turns of the event loop. */
function nanosecondsPerLine(sink: Sink): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    const started = process.cpuUsage();
    const turn = () => {
      for (let index = 0; index < linesPerTurn; index += 1) sink(accessLine(written++));
      if (written < lines) {
        setImmediate(turn);
        return;
      }
      const used = process.cpuUsage(started);
      resolve(((used.user + used.system) * 1000) / lines);
    };
    turn();
  });
}

const devNull = () => openSync('/dev/null', 'w');
const rows: Array<{ name: string; sink: () => Sink }> = [
  { name: 'the line alone (no destination)', sink: () => () => undefined },
  {
    name: 'pino.destination (sonic-boom, text mode), the version before',
    sink: () => {
      const destination = pino.destination({ dest: devNull(), sync: false, minLength: blockBytes });
      return (line) => void destination.write(line);
    },
  },
  {
    name: 'bufferedLogDestination (sonic-boom, buffer mode)',
    sink: () => {
      const destination = bufferedLogDestination(devNull(), blockBytes);
      return (line) => void destination.write(line);
    },
  },
];

const best = new Map<string, number>();
for (let round = 0; round < turns; round += 1) {
  for (const row of rows) {
    const figure = await nanosecondsPerLine(row.sink());
    best.set(row.name, Math.min(best.get(row.name) ?? Number.POSITIVE_INFINITY, figure));
  }
}
console.log(
  `CPU per access line, best of ${turns} turns of ${lines.toLocaleString('en')} lines (${linesPerTurn} per event-loop turn, ${blockBytes}-byte blocks)`,
);
for (const row of rows) console.log(`${row.name.padEnd(64)} ${((best.get(row.name) ?? 0) / 1000).toFixed(2)} µs`);
