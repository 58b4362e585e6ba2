import type { TokenRequestLimits } from './relay-limit-plan.ts';

export type { TokenRequestLimits };

/** A token row's limit columns as the relay holds them: undefined when all are 0 (unlimited). */
export function tokenRequestLimits(row: {
  rpm_limit?: number | null;
  tpm_limit?: number | null;
  concurrency_limit?: number | null;
}): TokenRequestLimits | undefined {
  const limits = {
    requestsPerMinute: Number(row.rpm_limit ?? 0),
    tokensPerMinute: Number(row.tpm_limit ?? 0),
    concurrentRequests: Number(row.concurrency_limit ?? 0),
  };
  return limits.requestsPerMinute > 0 || limits.tokensPerMinute > 0 || limits.concurrentRequests > 0 ? limits : undefined;
}
