/**
 * What an iFlytek Spark error code (`header.code` of an answer frame) means for the relay. The
 * WebSocket has no HTTP status once open, so the transport answers with the status chosen here and
 * the error parser reads the decisions back.
 * @see https://www.xfyun.cn/doc/spark/接口说明.html (错误码)
 */
export interface SparkCodeMeaning {
  readonly status: number;
  readonly type: string;
  readonly retryable: boolean;
  readonly disablesChannel: boolean;
}

/** Text audits: the input (10013, 10019, 10021) or the output (10014) was refused. Another channel would refuse it too. */
const contentRefusals = new Set([10013, 10014, 10019, 10021]);
/** The appid is blacklisted (10015), not licensed (10016, 11200), or used up its daily allowance (11201). */
const deadAccount = new Set([10015, 10016, 11200, 11201]);
/** Per-second (11202) and concurrency (11203) limits, a connection already busy (10006, 10007), a busy service (10110). */
const rateLimits = new Set([10006, 10007, 10110, 11202, 11203]);
/** The request itself is wrong: message format, schema, parameter values, engine schema, too many tokens. */
const badRequests = new Set([10003, 10004, 10005, 10163, 10907]);

export function classifySparkCode(code: number): SparkCodeMeaning {
  if (contentRefusals.has(code)) return { status: 400, type: 'content_filter', retryable: false, disablesChannel: false };
  if (deadAccount.has(code)) return { status: code === 11201 ? 429 : 403, type: 'insufficient_quota', retryable: true, disablesChannel: true };
  if (rateLimits.has(code)) return { status: 429, type: 'rate_limit_error', retryable: true, disablesChannel: false };
  if (badRequests.has(code)) return { status: 400, type: 'invalid_request_error', retryable: false, disablesChannel: false };
  // Engine and connection failures (10008–10012, 10222, …): the service's side, worth another channel.
  return { status: 500, type: 'upstream_error', retryable: true, disablesChannel: false };
}
