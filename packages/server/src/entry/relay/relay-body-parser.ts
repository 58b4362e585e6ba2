import type { IncomingMessage } from 'node:http';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * Reads a relay request body into ONE buffer. Fastify's own buffer parser keeps every chunk and then
 * concatenates them: for a moment each body is held twice (100 callers sending a 5 MB picture at
 * once: 1 GB instead of 500 MB). With a Content-Length, as every HTTP client sends for a body it
 * has whole, the buffer is allocated once at that size and the chunks are copied in as they arrive
 * (the socket's chunk is free again at once); without one (chunked uploads) chunks are gathered as
 * Fastify does. The limit and the length check answer as Fastify's parser does (413, 400).
 */
export function readRelayBody(limit: number) {
  return (request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: Buffer) => void): void => {
    const declared = Number(request.headers['content-length']);
    const known = request.headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0;
    if (known && declared > limit) {
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    const whole = known ? Buffer.allocUnsafe(declared) : undefined;
    const chunks: Buffer[] = [];
    let received = 0;
    const finish = (error: Error | null, body?: Buffer) => {
      payload.off('data', onData);
      payload.off('end', onEnd);
      payload.off('error', onError);
      done(error, body);
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      if (received + bytes.length > limit || (whole && received + bytes.length > whole.length)) {
        finish(whole ? new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH() : new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        return;
      }
      if (whole) bytes.copy(whole, received);
      else chunks.push(bytes);
      received += bytes.length;
    };
    const onEnd = () => {
      if (whole) finish(received === whole.length ? null : new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(), whole);
      else finish(null, Buffer.concat(chunks, received));
    };
    const onError = (error: Error & { statusCode?: number }) => {
      if (!(typeof error.statusCode === 'number' && error.statusCode >= 400)) error.statusCode = 400;
      finish(error);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  };
}
