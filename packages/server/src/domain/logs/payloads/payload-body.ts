import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { capText, type CappedText } from './payload-capping.ts';
import { redactSecrets, redactSecretsInLooseText } from './payload-redaction.ts';
import { reassembleStream } from './stream-reassembly.ts';

/** Bodies larger than this many times the cap are not parsed: their start is stored as text instead. */
const parseFactor = 16;
const minimumParseBytes = 1024 * 1024;

/** The largest body parsed whole for redaction, for a given cap. */
export function parseLimit(maxBytes: number): number {
  return Math.max(minimumParseBytes, maxBytes * parseFactor);
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

function isTextual(contentType: string): boolean {
  const type = contentType.toLowerCase();
  return type === '' || type.includes('json') || type.startsWith('text/') || type.includes('event-stream');
}

/** A body's text redacted and capped: parsed and redacted at any depth when it is JSON, else redacted as text. */
export function storedText(text: string, maxBytes: number): CappedText {
  if (looksLikeJson(text) && text.length <= parseLimit(maxBytes)) {
    const parsed = safeParseJson(text);
    if (parsed.ok) return capText(JSON.stringify(redactSecrets(parsed.value)), maxBytes);
  }
  return capText(redactSecretsInLooseText(text), maxBytes);
}

/**
 * A body of bytes as stored: binary bodies (multipart uploads, audio) are described, not kept; text
 * beyond the parse limit keeps only its start (as cut text, redacted as text).
 */
export function storedBody(body: Buffer | string, contentType: string, maxBytes: number): CappedText {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (!isTextual(contentType)) return { text: `[${contentType.split(';')[0] ?? 'binary'} body of ${length} bytes, not stored]`, truncated: true };
  if (length > parseLimit(maxBytes)) {
    const start = typeof body === 'string' ? body.slice(0, maxBytes) : body.subarray(0, maxBytes).toString('utf8');
    return { text: capText(redactSecretsInLooseText(start), maxBytes).text, truncated: true };
  }
  return storedText(typeof body === 'string' ? body : body.toString('utf8'), maxBytes);
}

/**
 * A streamed answer as stored: reassembled into the one message a non-streamed call would have
 * answered, redacted and capped; the raw stream text (redacted, capped) when it cannot be.
 */
export function storedStream(streamText: string, cut: boolean, maxBytes: number): CappedText {
  const reassembled = reassembleStream(streamText);
  const stored = reassembled ? capText(JSON.stringify(redactSecrets(reassembled)), maxBytes) : capText(redactSecretsInLooseText(streamText), maxBytes);
  return cut ? { text: stored.text, truncated: true } : stored;
}
