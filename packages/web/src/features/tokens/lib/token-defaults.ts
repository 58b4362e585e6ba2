/** As new-api's console: a new token gets $1 (500,000 units); batch counts 10, 20, 30, 100. */
export const defaultTokenQuota = 500_000;
export const batchCountPresets = [10, 20, 30, 100];
