import type { Started } from '../platform/processes.ts';

/** Something the load is aimed at: the fake upstream itself ("direct") or a gateway in front of it. */
export interface Target {
  /** Stable id used in the JSON results: direct, floor, switchboard-sqlite, switchboard-postgres, portkey… */
  readonly id: string;
  /** What the row is called in the Markdown table. */
  readonly label: string;
  readonly origin: string;
  readonly path: string;
  /** Auth (and, for the peer, routing) headers sent with every request. */
  readonly headers: Readonly<Record<string, string>>;
  /**
   * The non-stream request body this target is measured with, when it is not OpenAI chat (the native
   * paths send the vendor's own format); absent: `chatBody(benchModels.instant, false)`.
   */
  readonly body?: string;
  /** The gateway process (absent for direct); its CPU and memory are what the bench measures. */
  readonly process?: Started;
  /**
   * The longest event-loop delay the gateway itself saw since the last call, in ms (Switchboard's
   * /metrics); absent for targets that do not expose one.
   */
  readonly eventLoopMaxDelayMs?: () => Promise<number | undefined>;
}

export const chatPath = '/v1/chat/completions';

/** Request bodies; the model name picks the fake upstream's behaviour (see fake-upstream/behaviours.ts). */
export function chatBody(model: string, stream: boolean, caller?: string): string {
  // The shape of issue 41's outside measurement, so the bench and it measure the same request.
  const body: Record<string, unknown> = { model, messages: [{ role: 'user', content: 'Say hello to the benchmark.' }], max_tokens: 32 };
  // The fake tallies usage per `user` value, so a caller's traffic can be reconciled on its own.
  if (caller) body.user = caller;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return JSON.stringify(body);
}
