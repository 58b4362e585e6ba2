import { describe, expect, it } from 'vitest';
import { judgeAccount } from './reconcile.ts';

// Bench pricing: prompt × 1 + completion × 2.
const emitted = { requests: 3, promptTokens: 30, completionTokens: 15, tally: [{ prompt: 10, completion: 5, count: 3 }] };
const expected = 3 * (10 + 5 * 2);
const starting = 1_000_000;

describe('reconciliation verdict', () => {
  it('is exact when logs, user, token and balance all carry usage × price', () => {
    const check = judgeAccount(
      emitted,
      {
        logs: [{ prompt_tokens: 10, completion_tokens: 5, rows: 3, quota: expected }],
        user: { used_quota: expected, quota: starting - expected },
        token: { used_quota: expected },
      },
      starting,
      true,
    );
    expect(check).toMatchObject({ expectedQuota: 60, logRows: 3, logQuota: 60, exact: true, locallyCountedRows: 0 });
  });

  it('catches a lost log row, a stranded hold, a token off by one and rows the fake never emitted', () => {
    const rows = (fields: { logQuota?: number; logRows?: number; balance?: number; token?: number; extra?: boolean }) => ({
      logs: [
        { prompt_tokens: 10, completion_tokens: 5, rows: fields.logRows ?? 3, quota: fields.logQuota ?? expected },
        ...(fields.extra ? [{ prompt_tokens: 7, completion_tokens: 0, rows: 1, quota: 7 }] : []),
      ],
      user: { used_quota: expected, quota: fields.balance ?? starting - expected },
      token: { used_quota: fields.token ?? expected },
    });
    expect(judgeAccount(emitted, rows({ logRows: 2, logQuota: 40 }), starting, true).exact).toBe(false);
    expect(judgeAccount(emitted, rows({ balance: starting - expected - 500 }), starting, true).exact).toBe(false);
    expect(judgeAccount(emitted, rows({ token: expected - 1 }), starting, true).exact).toBe(false);
    const extra = judgeAccount(emitted, rows({ extra: true }), starting, true);
    expect(extra).toMatchObject({ exact: false, locallyCountedRows: 1 });
    // With logging off, only the balances are compared.
    expect(judgeAccount(emitted, rows({ logRows: 0, logQuota: 0 }), starting, false).exact).toBe(true);
  });
});
