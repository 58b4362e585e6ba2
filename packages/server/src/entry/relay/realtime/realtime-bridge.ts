import type { RawData, WebSocket } from 'ws';
import { RealtimeUsage } from './realtime-usage.ts';

/** Why a realtime session ended. */
export type RealtimeEndReason = 'client_closed' | 'upstream_closed' | 'out_of_quota';

export interface RealtimeBridgeOptions {
  /**
   * After each response's usage: whether the caller may go on. False ends the session with an error
   * event (the balance cannot pay for what the session used).
   */
  mayContinue(usage: RealtimeUsage): boolean;
  /** The error event sent before closing a session that ran out of quota. */
  outOfQuotaEvent(): string;
  /** Called once, when both sockets are closing: what the session used and why it ended. */
  onEnd(usage: RealtimeUsage, reason: RealtimeEndReason): void;
}

/** The type of the event that carries a response's usage, as it appears in the frame's JSON. */
const responseDone = '"response.done"';

/** Close codes that may be sent on the wire (1005, 1006 and 1015 only describe a close, RFC 6455 §7.4.1). */
function sendableCode(code: number): number {
  if (code === 1000 || (code >= 1001 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999)) return code;
  return 1000;
}

/**
 * Joins the caller's socket to the upstream's: every frame goes across as it came (text stays text,
 * binary stays binary, no re-encoding), the upstream's `response.done` events are counted, and when
 * either side closes or fails, the other is closed with the same code. `onEnd` runs exactly once,
 * however the session ends, so its hold is always settled. The upstream arrives paused and is
 * resumed once every listener is in place.
 */
export function bridgeRealtime(client: WebSocket, upstream: WebSocket, options: RealtimeBridgeOptions): void {
  const usage = new RealtimeUsage();
  let ended = false;
  const end = (reason: RealtimeEndReason, code: number, why: string) => {
    if (ended) return;
    ended = true;
    for (const socket of [client, upstream]) {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(sendableCode(code), why.slice(0, 120));
    }
    options.onEnd(usage, reason);
  };

  upstream.on('message', (data: RawData, isBinary: boolean) => {
    if (ended) return;
    if (!isBinary) {
      // Forwarded as the bytes that came; decoded only when it is the one event that carries usage.
      const frame = data as Buffer;
      const before = usage.responses;
      if (frame.includes(responseDone)) usage.addFrame(frame.toString('utf8'));
      client.send(frame, { binary: false });
      if (usage.responses !== before && !options.mayContinue(usage)) {
        client.send(options.outOfQuotaEvent(), { binary: false });
        end('out_of_quota', 1008, 'insufficient quota');
      }
      return;
    }
    client.send(data, { binary: true });
  });
  client.on('message', (data: RawData, isBinary: boolean) => {
    if (!ended) upstream.send(data, { binary: isBinary });
  });

  upstream.on('close', (code: number, reason: Buffer) => end('upstream_closed', code, reason.toString()));
  client.on('close', (code: number, reason: Buffer) => end('client_closed', code, reason.toString()));
  // An error is followed by 'close'; without a listener it would be thrown.
  upstream.on('error', () => end('upstream_closed', 1011, 'upstream error'));
  client.on('error', () => end('client_closed', 1011, 'client error'));
  upstream.resume();
}
