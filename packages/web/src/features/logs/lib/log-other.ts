/** The `other` JSON of a consume log: ratios, first-token time, retries (administrators) and audio parts. */
export interface LogOther {
  frt?: number;
  model_ratio?: number;
  model_price?: number;
  completion_ratio?: number;
  group_ratio?: number;
  cache_tokens?: number;
  cache_ratio?: number;
  ws?: boolean;
  audio?: boolean;
  audio_input?: number;
  audio_output?: number;
  text_input?: number;
  text_output?: number;
  audio_ratio?: number;
  audio_completion_ratio?: number;
  admin_info?: { use_channel?: Array<number | string> };
}

export function parseOther(other: string | null | undefined): LogOther {
  if (!other) return {};
  try {
    const parsed = JSON.parse(other) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as LogOther) : {};
  } catch {
    return {};
  }
}

/** Duration colours: under 101 s green, under 300 s orange, else red. */
export function durationColour(seconds: number): string {
  if (seconds < 101) return 'green';
  if (seconds < 300) return 'orange';
  return 'red';
}

/** First token under 3 s green, under 10 s orange, else red. */
export function firstTokenColour(seconds: number): string {
  if (seconds < 3) return 'green';
  if (seconds < 10) return 'orange';
  return 'red';
}
