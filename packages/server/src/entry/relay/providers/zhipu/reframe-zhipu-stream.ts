import { StringDecoder } from 'node:string_decoder';
import { SseBlockSplitter } from '@switchboard/contracts';

/**
 * sse-invoke events are server-sent events with two quirks a standard reader loses: `data:` is raw
 * text (the finish event's is often empty, which readers skip), and the usage rides on a `meta:`
 * line, which is no SSE field at all. Each event is therefore re-framed into a standard one whose
 * data is JSON holding the three fields, for the stream converter to read.
 *
 *   event: finish            →   event: finish
 *   id: 8313807536837492492      data: {"id":"8313807536837492492","data":"","meta":"{\"usage\":…}"}
 *   data:
 *   meta: {"usage":{…}}
 */
export function reframeZhipuBlock(block: string): string | undefined {
  let event = '';
  let id = '';
  let data: string | undefined;
  let meta: string | undefined;
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = line.slice(0, colon);
    // One space after the colon belongs to the syntax, not the value (as in standard SSE).
    const value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    if (field === 'event') event = value.trim();
    else if (field === 'id') id = value.trim();
    else if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'meta') meta = meta === undefined ? value : `${meta}${value}`;
  }
  if (!event && data === undefined && meta === undefined) return undefined;
  const framed: Record<string, string> = { id, data: data ?? '' };
  if (meta !== undefined) framed.meta = meta;
  return `event: ${event || 'add'}\ndata: ${JSON.stringify(framed)}\n\n`;
}

/** The upstream body, re-framed event by event as it arrives (no buffering beyond one event). */
export async function* reframeZhipuStream(body: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  const decoder = new StringDecoder('utf8');
  const splitter = new SseBlockSplitter();
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let out = '';
    for (const block of splitter.push(text)) out += reframeZhipuBlock(block) ?? '';
    if (out) yield Buffer.from(out);
  }
  splitter.append(decoder.end());
  let tail = '';
  for (let block = splitter.next(); block !== undefined; block = splitter.next()) tail += reframeZhipuBlock(block) ?? '';
  const rest = splitter.end();
  if (rest !== undefined) tail += reframeZhipuBlock(rest) ?? '';
  if (tail) yield Buffer.from(tail);
}
