/** A usage-log row as its own user sees it (`GET /api/log/self/`): no channel, no administrator details. */
export interface SelfLogView {
  id: number;
  user_id: number;
  created_at: number;
  /** See LogType. */
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  is_stream: boolean;
  token_id: number;
  group: string;
  ip: string;
  request_id: string;
  /** JSON text of billing details; `admin_info` only in the administrator's view. */
  other: string;
}

/** A usage-log row for administrators (`GET /api/log/`): the channel (as `channel`) with its name. */
export interface AdminLogView extends SelfLogView {
  channel: number;
  channel_name: string;
}

/** A row of either list, as a console showing both reads it: the channel only on the administrator's. */
export type LogView = SelfLogView & Partial<Pick<AdminLogView, 'channel' | 'channel_name'>>;

/** `GET /api/log/stat` and `/api/log/self/stat`: consumed quota over the filters, requests and tokens of the last minute. */
export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

/**
 * `GET /api/log/:id/payload` (administrators): the stored bodies of a log row's request, or null when
 * none was stored. Bodies are redacted and cut at LogPayloadMaxBytes (then `*_truncated`); a streamed
 * answer is reassembled into one message.
 */
export interface LogPayloadView {
  request_id: string;
  created_at: number;
  is_stream: boolean;
  request_body: string;
  response_body: string;
  request_truncated: boolean;
  response_truncated: boolean;
}
