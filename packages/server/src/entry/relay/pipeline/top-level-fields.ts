import { safeParseJson } from '../../../core/platform/safe-json.ts';

/**
 * Sets top-level fields of a JSON object body by splicing its bytes: what the pipeline edits before
 * forwarding (the channel's model mapping, `stream_options.include_usage`) is a few top-level keys,
 * while the body may carry megabytes of base64 images. Serialising the parsed object again would
 * build the whole body as a string and then as bytes, two more copies of every picture held at once
 * per request; the splice copies the caller's bytes once, around the edited values.
 */

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;
const colon = 0x3a;

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** A top-level member: its name and where its value's bytes are. */
interface Member {
  readonly name: string;
  readonly valueStart: number;
  readonly valueEnd: number;
}

/** The index just past the string literal that opens at `start` (a quote); -1 when it never closes. */
function skipString(raw: Buffer, start: number): number {
  for (let at = raw.indexOf(quote, start + 1); at !== -1; at = raw.indexOf(quote, at + 1)) {
    // A quote preceded by an odd run of backslashes is escaped.
    let slashes = 0;
    while (raw[at - 1 - slashes] === backslash) slashes += 1;
    if (slashes % 2 === 0) return at + 1;
  }
  return -1;
}

/** The index just past the value that starts at `start`; -1 when the bytes end first. */
function skipValue(raw: Buffer, start: number): number {
  const first = raw[start];
  if (first === quote) return skipString(raw, start);
  if (first !== openBrace && first !== openBracket) {
    let at = start;
    while (at < raw.length && raw[at] !== comma && raw[at] !== closeBrace && raw[at] !== closeBracket && !isSpace(raw[at])) at += 1;
    return at === start ? -1 : at;
  }
  let depth = 0;
  for (let at = start; at < raw.length;) {
    const byte = raw[at];
    if (byte === quote) {
      at = skipString(raw, at);
      if (at === -1) return -1;
      continue;
    }
    if (byte === openBrace || byte === openBracket) depth += 1;
    else if (byte === closeBrace || byte === closeBracket) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
    at += 1;
  }
  return -1;
}

function skipSpaces(raw: Buffer, at: number): number {
  while (isSpace(raw[at])) at += 1;
  return at;
}

/** The top-level members of a JSON object and where it closes; undefined when the bytes are not one. */
function topLevelMembers(raw: Buffer): { members: Member[]; close: number } | undefined {
  let at = skipSpaces(raw, 0);
  if (raw[at] !== openBrace) return undefined;
  at = skipSpaces(raw, at + 1);
  const members: Member[] = [];
  if (raw[at] === closeBrace) return skipSpaces(raw, at + 1) === raw.length ? { members, close: at } : undefined;
  for (;;) {
    if (raw[at] !== quote) return undefined;
    const nameEnd = skipString(raw, at);
    if (nameEnd === -1) return undefined;
    const name = safeParseJson(raw.toString('utf8', at, nameEnd));
    if (!name.ok || typeof name.value !== 'string') return undefined;
    at = skipSpaces(raw, nameEnd);
    if (raw[at] !== colon) return undefined;
    const valueStart = skipSpaces(raw, at + 1);
    const valueEnd = skipValue(raw, valueStart);
    if (valueEnd === -1) return undefined;
    members.push({ name: name.value, valueStart, valueEnd });
    at = skipSpaces(raw, valueEnd);
    if (raw[at] === comma) {
      at = skipSpaces(raw, at + 1);
      continue;
    }
    if (raw[at] !== closeBrace || skipSpaces(raw, at + 1) !== raw.length) return undefined;
    return { members, close: at };
  }
}

/**
 * The body with `fields` set at its top level (replacing every member of that name, or added at the
 * end), every other byte as the caller sent it; undefined when the bytes are not a JSON object (the
 * caller then serialises its parsed copy).
 */
export function withTopLevelFields(raw: Buffer, fields: Readonly<Record<string, unknown>>): Buffer | undefined {
  const scanned = topLevelMembers(raw);
  if (!scanned) return undefined;
  const pieces: Buffer[] = [];
  let copiedUpTo = 0;
  const replaced = new Set<string>();
  for (const member of scanned.members) {
    if (!Object.hasOwn(fields, member.name)) continue;
    pieces.push(raw.subarray(copiedUpTo, member.valueStart), Buffer.from(JSON.stringify(fields[member.name])));
    copiedUpTo = member.valueEnd;
    replaced.add(member.name);
  }
  const added = Object.entries(fields).filter(([name]) => !replaced.has(name));
  if (added.length === 0) {
    pieces.push(raw.subarray(copiedUpTo));
    return Buffer.concat(pieces);
  }
  pieces.push(raw.subarray(copiedUpTo, scanned.close));
  const members = added.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',');
  pieces.push(Buffer.from(`${scanned.members.length > 0 ? ',' : ''}${members}`), raw.subarray(scanned.close));
  return Buffer.concat(pieces);
}
