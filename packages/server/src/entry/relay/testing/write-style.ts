/**
 * How a fake upstream puts an answer on the wire. A relay must give the same answer whatever the
 * TCP reads look like, so fakes can replay one answer three ways:
 * - `as-composed`: each write as the fake makes it (usually one per event)
 * - `one-write`: the whole body, headers included, in one write: the relay tends to read it all at
 *   once, end of body included (how short answers and Gemini tool calls arrive in real life)
 * - `byte-per-write`: one byte per write, each left to reach the relay before the next, so every
 *   frame, line end and multi-byte character is split
 * - `then-silence`: a streamed answer's first write, then nothing until the relay gives up
 *   (STREAMING_TIMEOUT); answers sent whole (errors, token exchanges) still go out whole
 */
export type WriteStyle = 'as-composed' | 'one-write' | 'byte-per-write' | 'then-silence';

/** What the styles need of a response; Node's HTTP/1.1 and HTTP/2 compatibility responses both fit. */
export interface StyledResponse {
  writeHead(status: number, headers?: Record<string, string | number>): unknown;
  write(chunk: string | Buffer, callback?: (error?: Error | null) => void): unknown;
  end(chunk?: string | Buffer): unknown;
  readonly headersSent: boolean;
  destroy(): unknown;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function trickle(response: StyledResponse, body: Buffer): Promise<void> {
  for (let index = 0; index < body.length; index += 1) {
    await new Promise<void>((resolve) => response.write(body.subarray(index, index + 1), () => resolve()));
    // One turn of the event loop lets the relay (same process) read this byte on its own.
    await nextTurn();
  }
  response.end();
}

/**
 * Wraps a fake's response so that what the fake writes reaches the wire in `style`. Errors of the
 * trickle (the relay left) are dropped: the connection is gone, which is what the fake then shows.
 */
export function styledResponse(response: StyledResponse, style: WriteStyle): StyledResponse {
  if (style === 'as-composed') return response;
  const chunks: Buffer[] = [];
  let streaming = false;
  return {
    writeHead: (status, headers) => response.writeHead(status, headers),
    write(chunk) {
      if (style === 'then-silence') {
        if (!streaming) response.write(chunk);
        streaming = true;
        return true;
      }
      chunks.push(Buffer.from(chunk));
      return true;
    },
    end(chunk) {
      if (style === 'then-silence') return streaming ? undefined : response.end(chunk);
      if (chunk !== undefined) chunks.push(Buffer.from(chunk));
      const body = Buffer.concat(chunks);
      if (style === 'one-write') return response.end(body);
      void trickle(response, body).catch(() => undefined);
      return undefined;
    },
    get headersSent() {
      return response.headersSent;
    },
    destroy: () => response.destroy(),
  };
}
