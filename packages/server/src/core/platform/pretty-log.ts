import { safeParseJson } from './safe-json.ts';

/**
 * The log as a person at a terminal reads it: local time, level, message, then the fields that say
 * something, one line each (an error's stack below it). The JSON lines stay the format for anything
 * that is not a terminal (files, containers, log collectors); this only changes how they are shown.
 */

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const levelColours: Record<number, string> = { 10: '90', 20: '90', 30: '32', 40: '33', 50: '31', 60: '35' };
/** Fields every line carries or that the line already shows in its own place. */
const shownElsewhere = new Set(['level', 'time', 'msg', 'service', 'pid', 'hostname', 'err', 'method', 'url', 'status', 'ms']);

function paint(text: string, code: string, colours: boolean): string {
  return colours ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function clockTime(epochMs: number): string {
  const time = new Date(epochMs);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${two(time.getHours())}:${two(time.getMinutes())}:${two(time.getSeconds())}.${String(time.getMilliseconds()).padStart(3, '0')}`;
}

function fieldText(value: unknown): string {
  return typeof value === 'string' ? (/\s/.test(value) || value === '' ? JSON.stringify(value) : value) : JSON.stringify(value);
}

/** One JSON log line as terminal text (without the newline); a line that is not JSON is shown as it is. */
export function formatLogLine(line: string, colours: boolean): string {
  const parsed = safeParseJson(line);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return line;
  const entry = parsed.value as Record<string, unknown>;
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const time = typeof entry.time === 'number' ? clockTime(entry.time) : '';
  const parts = [paint(time, '90', colours), paint(levelNames[level] ?? String(level), levelColours[level] ?? '0', colours)];
  // An access line reads as the request it was: "GET /api/status 200 3 ms".
  if (entry.msg === 'request' && typeof entry.method === 'string') {
    parts.push(`${entry.method} ${String(entry.url)} ${paint(String(entry.status), Number(entry.status) >= 400 ? '33' : '0', colours)} ${String(entry.ms)} ms`);
  } else {
    parts.push(typeof entry.msg === 'string' ? entry.msg : '');
  }
  const fields = Object.entries(entry)
    .filter(([key]) => !shownElsewhere.has(key))
    .map(([key, value]) => paint(`${key}=${fieldText(value)}`, '90', colours));
  let text = [...parts, ...fields].filter(Boolean).join(' ');
  const error = entry.err as { stack?: unknown; message?: unknown } | undefined;
  if (error && typeof error === 'object') {
    text += `\n    ${String(error.stack ?? error.message ?? JSON.stringify(error)).replace(/\n/g, '\n    ')}`;
  }
  return text;
}

/** A pino destination that writes each line through `formatLogLine` to `target` (which keeps its own flushing). */
export function prettyDestination(target: { write(text: string): unknown }, colours: boolean): { write(chunk: string): boolean } {
  let partial = '';
  return {
    write(chunk: string): boolean {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length > 0) target.write(lines.map((line) => `${formatLogLine(line, colours)}\n`).join(''));
      return true;
    },
  };
}
