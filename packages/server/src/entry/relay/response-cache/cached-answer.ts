import type { NormalizedUsage } from '../provider.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

/** What a hit replays and bills: the bytes the caller got, and the usage the original answer was charged for. */
export interface CachedAnswer {
  /** `whole`: one body; `stream`: the event bytes exactly as they were written to the caller. */
  readonly kind: 'whole' | 'stream';
  readonly contentType: string;
  /** The model that served the original answer (a fallback may have served it). */
  readonly servedModel: string;
  readonly usage: NormalizedUsage;
  readonly body: Buffer;
}

interface StoredHead {
  readonly kind: 'whole' | 'stream';
  readonly contentType: string;
  readonly servedModel: string;
  readonly usage: NormalizedUsage;
}

function headLine(answer: CachedAnswer): string {
  const head: StoredHead = { kind: answer.kind, contentType: answer.contentType, servedModel: answer.servedModel, usage: answer.usage };
  return `${JSON.stringify(head)}\n`;
}

/** One buffer per answer (a JSON head line, then the body bytes): what Redis keeps. */
export function encodeAnswer(answer: CachedAnswer): Buffer {
  return Buffer.concat([Buffer.from(headLine(answer)), answer.body]);
}

/** The bytes an answer takes encoded: what it counts against the memory store's bound, wherever it is kept. */
export function storedSize(answer: CachedAnswer): number {
  return Buffer.byteLength(headLine(answer)) + answer.body.length;
}

/** The answer back from its stored bytes; undefined for anything unreadable (treated as a miss). */
export function decodeAnswer(stored: Buffer): CachedAnswer | undefined {
  const newline = stored.indexOf(10);
  if (newline < 0) return undefined;
  const head = safeParseJson(stored.subarray(0, newline).toString('utf8'));
  if (!head.ok || typeof head.value !== 'object' || head.value === null) return undefined;
  const { kind, contentType, servedModel, usage } = head.value as Partial<StoredHead>;
  if ((kind !== 'whole' && kind !== 'stream') || typeof contentType !== 'string' || typeof servedModel !== 'string' || typeof usage !== 'object')
    return undefined;
  return { kind, contentType, servedModel, usage, body: stored.subarray(newline + 1) };
}
