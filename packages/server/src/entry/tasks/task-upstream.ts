import type { Readable } from 'node:stream';
import { request as undiciRequest } from 'undici';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import { maskSecrets } from '../../core/http/relay-error.ts';

/** An open answer of a task vendor (or of the image host): status, headers and the body stream. */
export interface OpenedAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Readable;
}

/** Sends one request with the whole call bounded by `timeoutMs` (connect, headers and every body chunk). */
export async function openTaskUpstream(
  request: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<OpenedAnswer> {
  const response = await undiciRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(timeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
}

/** A task vendor's answer: its status and JSON body (undefined when the body is not JSON). */
export interface TaskUpstreamAnswer {
  readonly status: number;
  readonly json: unknown;
  /** The body as text, secrets masked, for error messages. */
  readonly text: string;
}

export type TaskUpstreamResult = { ok: true; answer: TaskUpstreamAnswer } | { ok: false; reason: string };

/** Upper bound on a task vendor's answer: submit and fetch answers are small JSON documents. */
const maxAnswerBytes = 8 * 1024 * 1024;

/**
 * One JSON call to a task vendor (a midjourney-proxy or a Suno API). Connection failures and timeouts come back as `ok: false` with a masked reason, never
 * as a throw: the callers answer them in the vendor's own error shape.
 */
export async function callTaskUpstream(
  request: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown },
  timeoutMs: number,
  secrets: readonly string[],
): Promise<TaskUpstreamResult> {
  try {
    const response = await openTaskUpstream(
      {
        url: request.url,
        method: request.method,
        headers: { accept: 'application/json', ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      },
      timeoutMs,
    );
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size > maxAnswerBytes) {
        response.body.destroy();
        return { ok: false, reason: 'upstream answer too large' };
      }
      chunks.push(buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const parsed = safeParseJson(text);
    return { ok: true, answer: { status: response.statusCode, json: parsed.ok ? parsed.value : undefined, text: maskSecrets(text.slice(0, 2000), secrets) } };
  } catch (error) {
    return { ok: false, reason: maskSecrets(error instanceof Error ? error.message : String(error), secrets) };
  }
}
