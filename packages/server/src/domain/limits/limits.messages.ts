import type { LocalizedMessage } from '../../core/messages/catalogue.ts';

/** Refusals of the request limits; the two user-level ones are new-api's own wording. */
export const limitsMessages = {
  userTotal: {
    zh: '您已达到总请求数限制：{minutes}分钟内最多请求{limit}次，包括失败次数，请检查您的请求是否正确',
    en: 'You have reached the total request limit: at most {limit} requests in {minutes} minutes, failed ones included; check that your requests are correct',
  },
  userSuccess: {
    zh: '您已达到请求数限制：{minutes}分钟内最多请求{limit}次',
    en: 'You have reached the request limit: at most {limit} requests in {minutes} minutes',
  },
  tokenRpm: {
    zh: '该令牌已达到每分钟最多 {limit} 次请求的限制（RPM），请 {seconds} 秒后重试',
    en: "This token's limit of {limit} requests per minute (RPM) is reached; retry in {seconds} s",
  },
  tokenTpm: {
    zh: '该令牌已达到每分钟最多 {limit} 个 token 的限制（TPM），请 {seconds} 秒后重试',
    en: "This token's limit of {limit} tokens per minute (TPM) is reached; retry in {seconds} s",
  },
  tokenConcurrency: {
    zh: '该令牌已达到最多 {limit} 个并发请求的限制，请等待进行中的请求完成后重试（约 {seconds} 秒）',
    en: "This token's limit of {limit} concurrent requests is reached; retry when one of them finishes (in about {seconds} s)",
  },
} as const satisfies Record<string, LocalizedMessage>;
