/**
 * What the fake upstream does is chosen by the model name in the request body, so every gateway (which
 * forwards the body unchanged) reaches every behaviour through one channel and one base URL.
 */
export const benchModels = {
  /** Answers at once; streams write all chunks back to back. */
  instant: 'bench-instant',
  /** Answers after a fixed latency (non-stream), or waits that long before an instant stream. */
  slow: 'bench-slow',
  /** Streams paced chunks: the first at once, the rest `pacedIntervalMs` apart, usage in the last. */
  paced: 'bench-paced',
  /** Error modes: HTTP 429, HTTP 500, a stream cut mid-way without usage, and no answer at all. */
  error429: 'bench-error-429',
  error500: 'bench-error-500',
  errorCut: 'bench-error-cut',
  errorHang: 'bench-error-hang',
} as const;

export const fakeTiming = {
  slowLatencyMs: 50,
  pacedIntervalMs: 20,
  /** Chunks per stream, the last one carrying finish_reason and usage; `data: [DONE]` follows. */
  streamChunks: 64,
  /** Chunks sent before the cut-stream error mode drops the connection. */
  cutAfterChunks: 10,
};

/** Completion tokens the fake reports for a non-streamed answer; a stream reports one per chunk. */
export const nonStreamCompletionTokens = 9;

/** Prompt tokens are derived from the body size so usage varies between requests yet stays predictable. */
export function promptTokensFor(bodyBytes: number): number {
  return 10 + (bodyBytes % 17);
}
