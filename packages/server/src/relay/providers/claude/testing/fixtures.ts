import { readFileSync } from 'node:fs';
import { safeParseJson } from '../../../../platform/safe-json.ts';
import type { SseEvent } from '../../../provider.ts';

/** Reads a recorded JSON body from a provider's `__fixtures__` folder. */
export function readJsonFixture(folderUrl: URL, name: string): unknown {
  const parsed = safeParseJson(readFileSync(new URL(name, folderUrl), 'utf8'));
  if (!parsed.ok) throw new Error(`fixture ${name}: ${parsed.error}`);
  return parsed.value;
}

/** Reads a recorded stream (`*.chunks.txt`) as raw text, exactly as the vendor sends it. */
export function readStreamFixture(folderUrl: URL, name: string): string {
  return readFileSync(new URL(name, folderUrl), 'utf8');
}

/** Splits server-sent-event text into events (test-side reader; the relay has its own). */
export function parseSseText(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = '';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return events;
}
