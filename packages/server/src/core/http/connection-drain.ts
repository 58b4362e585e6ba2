import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * A connection of the server with the answer in flight on it: Node sets `_httpMessage` when a
 * request's answer takes the connection and clears it once the answer is written. Node's own
 * `closeIdleConnections` reads it; reading it here costs requests nothing and keeps no finished
 * answer alive on an idle connection.
 */
interface ServedSocket extends Socket {
  _httpMessage?: ServerResponse | null;
}

export interface ConnectionDrain {
  /**
   * Ends every connection that has no answer in flight now, and each other one once its answer is
   * written; `cutAfterMs` later, cuts those still answering.
   */
  closeConnections(): void;
}

export interface DrainOptions {
  /**
   * How long answers in flight may go on once the stop began (a stream can run for minutes). Then
   * their connections are cut: the relay sees its caller gone and bills what each answer delivered,
   * which a process ended at its shutdown deadline would never have written.
   */
  readonly cutAfterMs: number;
  /** Told how many connections were cut. */
  readonly onCut?: (connections: number) => void;
}

/**
 * The time answers get at a stop of `shutdownTimeoutSeconds`: all of it but the last quarter, at
 * most 5 s, which is left for the cut requests to settle and every charge to be written.
 */
export function answerGraceMs(shutdownTimeoutSeconds: number): number {
  const timeoutMs = shutdownTimeoutSeconds * 1000;
  return timeoutMs - Math.min(5000, timeoutMs / 4);
}

/**
 * What Node's `server.close()` leaves open, closed for a graceful stop. Node closes the connections
 * idle between two requests, but not one that was opened and has sent nothing yet (browsers and
 * connection pools open them ahead of use, and Node counts them as waiting for a request's headers,
 * a wait whose timeout stops with the server), and it keeps a connection open after the answer that
 * was in flight when it was called (keep-alive). Either held a stopping gateway until its shutdown
 * deadline, and it then exited 1. Connections that arrive after (a cluster worker can be handed one
 * while it closes) are ended as they come: the primary or the load balancer sends them elsewhere.
 * Upgraded connections (realtime sessions, which can last hours) carry no answer and end at once;
 * their sessions settle as they close.
 *
 * Requests pay nothing for it: it listens for connections, not requests.
 */
export function drainConnectionsOnClose(server: Server, options: DrainOptions): ConnectionDrain {
  const open = new Set<ServedSocket>();
  let closing = false;
  server.on('connection', (socket: ServedSocket) => {
    if (closing) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return {
    closeConnections() {
      if (closing) return;
      closing = true;
      for (const socket of open) {
        const answer = socket._httpMessage;
        if (answer && !answer.writableFinished) endAfterAnswer(socket, answer);
        else socket.destroy();
      }
      const cut = setTimeout(() => {
        if (open.size === 0) return;
        options.onCut?.(open.size);
        for (const socket of open) socket.destroy();
      }, options.cutAfterMs);
      cut.unref();
    },
  };
}

/**
 * The connection ends once `answer` is written whole (or cut): the caller gets every byte of it first,
 * and, when its headers are still to be sent, is told not to send another request on it.
 */
function endAfterAnswer(socket: ServedSocket, answer: ServerResponse): void {
  if (!answer.headersSent) answer.setHeader('connection', 'close');
  answer.once('close', () => socket.destroySoon());
}
