import type { TokenView } from '@switchboard/contracts';
import { describe, expect, it } from 'vitest';
import { formToTokenLimits, tokenLimitsToForm } from './token-limits.ts';

describe('token limits in the drawer', () => {
  it('shows 0 (unlimited) as an empty field and sends an empty field as 0', () => {
    const token = { rpm_limit: 60, tpm_limit: 0, concurrency_limit: 3 } as TokenView;
    expect(tokenLimitsToForm(token)).toEqual({ rpm_limit: 60, tpm_limit: null, concurrency_limit: 3 });
    expect(formToTokenLimits({ rpm_limit: 60, tpm_limit: null, concurrency_limit: 2.7 })).toEqual({ rpm_limit: 60, tpm_limit: 0, concurrency_limit: 2 });
    expect(formToTokenLimits({})).toEqual({ rpm_limit: 0, tpm_limit: 0, concurrency_limit: 0 });
  });
});
