/**
 * Our server-sent-event reader (`@switchboard/contracts`, used by the relay, the playground and the
 * tests) against the maintained library `eventsource-parser`, on the streams the relay reads: OpenAI
 * chat chunks as the network delivers them (whole frames, 1 KiB pieces, and 16-byte pieces that split
 * most frames and every CRLF). Reports nanoseconds per event, the median of several rounds, and checks
 * that both read the same events.
 *
 *   node bench/src/micro/sse-reader.ts
 */
import { parseSseBlock, SseBlockSplitter, type SseEvent } from '@switchboard/contracts';
import { createParser } from 'eventsource-parser';
import { percentile, sortedCopy } from '../measure/stats.ts';

const eventsPerStream = 2_000;
const rounds = 15;

function chatChunk(index: number): string {
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_764_000_000,
    model: 'gpt-4o-mini',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta: { content: ` token${index}` }, logprobs: null, finish_reason: null }],
    usage: null,
  };
  return JSON.stringify(chunk);
}

function streamText(lineEnd: string): string {
  const frames: string[] = [];
  for (let index = 0; index < eventsPerStream; index += 1) frames.push(`data: ${chatChunk(index)}${lineEnd}${lineEnd}`);
  frames.push(`data: [DONE]${lineEnd}${lineEnd}`);
  return frames.join('');
}

function pieces(text: string, size: number | 'frames'): string[] {
  if (size === 'frames') return text.split(/(?<=\n\n|\r\n\r\n)/);
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

type Reader = (chunks: readonly string[], onEvent: (event: SseEvent) => void) => void;

const readers: Record<string, Reader> = {
  'switchboard (contracts)': (chunks, onEvent) => {
    const splitter = new SseBlockSplitter();
    const read = (block: string) => {
      const event = parseSseBlock(block);
      if (event) onEvent(event);
    };
    for (const chunk of chunks) for (const block of splitter.push(chunk)) read(block);
    const last = splitter.end();
    if (last !== undefined) read(last);
  },
  'eventsource-parser': (chunks, onEvent) => {
    const parser = createParser({ onEvent: (event) => onEvent({ event: event.event ?? '', data: event.data }) });
    for (const chunk of chunks) parser.feed(chunk);
  },
};

/** Nanoseconds per event of one reader over one way of cutting the stream, median of `rounds`. */
function measure(reader: Reader, chunks: readonly string[]): { nsPerEvent: number; events: SseEvent[] } {
  let events: SseEvent[] = [];
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    const seen: SseEvent[] = [];
    const start = process.hrtime.bigint();
    reader(chunks, (event) => seen.push(event));
    times.push(Number(process.hrtime.bigint() - start) / seen.length);
    events = seen;
  }
  return { nsPerEvent: percentile(sortedCopy(times), 50), events };
}

const cases: Array<{ label: string; lineEnd: string; size: number | 'frames' }> = [
  { label: 'LF, one frame per chunk', lineEnd: '\n', size: 'frames' },
  { label: 'LF, 1 KiB chunks', lineEnd: '\n', size: 1024 },
  { label: 'LF, 16-byte chunks', lineEnd: '\n', size: 16 },
  { label: 'CRLF, 16-byte chunks', lineEnd: '\r\n', size: 16 },
];

// One untimed pass over every case first, so no reader is measured while the JIT still compiles it.
for (const { lineEnd, size } of cases) for (const reader of Object.values(readers)) measure(reader, pieces(streamText(lineEnd), size));

console.log(`| stream (${eventsPerStream + 1} events) | ${Object.keys(readers).join(' ns/event | ')} ns/event |`);
console.log(
  `|---|${Object.keys(readers)
    .map(() => '---:|')
    .join('')}`,
);
for (const { label, lineEnd, size } of cases) {
  const chunks = pieces(streamText(lineEnd), size);
  const results = Object.values(readers).map((reader) => measure(reader, chunks));
  const [reference, ...others] = results;
  for (const other of others) {
    if (JSON.stringify(other.events) !== JSON.stringify(reference?.events)) throw new Error(`the readers disagree on "${label}"`);
  }
  console.log(`| ${label} | ${results.map((result) => result.nsPerEvent.toFixed(0)).join(' | ')} |`);
}
