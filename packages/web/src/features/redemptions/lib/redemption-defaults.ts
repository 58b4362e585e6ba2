/** The most codes one create call makes (the server refuses more). */
export const maximumBatch = 100;
/** A new code's quota before the administrator picks one. */
export const defaultRedemptionQuota = 100_000;
