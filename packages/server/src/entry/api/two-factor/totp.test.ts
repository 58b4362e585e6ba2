import { describe, expect, it } from 'vitest';
import { decodeBase32, encodeBase32, generateTotpSecret, hotp, matchingTimeStep, otpauthUrl, type TotpParameters, totpAt } from './totp.ts';

// RFC 6238 Appendix B: the seeds are the ASCII digits "1234567890" repeated to the hash's length.
const seeds = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};

const appendixB: Array<[number, string, string, string]> = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

const eightDigits = (algorithm: TotpParameters['algorithm']): TotpParameters => ({ algorithm, digits: 8, periodSeconds: 30 });

describe('TOTP (RFC 6238, RFC 4226)', () => {
  it.each(appendixB)('matches RFC 6238 Appendix B at T=%i', (time, sha1, sha256, sha512) => {
    expect(totpAt(seeds.sha1, time, eightDigits('sha1'))).toBe(sha1);
    expect(totpAt(seeds.sha256, time, eightDigits('sha256'))).toBe(sha256);
    expect(totpAt(seeds.sha512, time, eightDigits('sha512'))).toBe(sha512);
  });

  it('matches the RFC 4226 Appendix D HOTP values', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, counter) => hotp(seeds.sha1, counter))).toEqual(expected);
  });

  it('accepts the code of the step before and after, and no further', () => {
    const time = 1111111111;
    const sixDigit = (at: number) => totpAt(seeds.sha1, at);
    const step = Math.floor(time / 30);
    expect(matchingTimeStep(seeds.sha1, sixDigit(time), time)).toBe(step);
    expect(matchingTimeStep(seeds.sha1, sixDigit(time - 30), time)).toBe(step - 1);
    expect(matchingTimeStep(seeds.sha1, sixDigit(time + 30), time)).toBe(step + 1);
    expect(matchingTimeStep(seeds.sha1, sixDigit(time - 60), time)).toBeUndefined();
    expect(matchingTimeStep(seeds.sha1, sixDigit(time + 60), time)).toBeUndefined();
    expect(matchingTimeStep(seeds.sha1, '12345', time)).toBeUndefined();
  });

  it('round-trips base32 (RFC 4648 test vectors) and makes 160-bit secrets', () => {
    const vectors: Array<[string, string]> = [
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(encodeBase32(Buffer.from(plain))).toBe(encoded);
      expect(decodeBase32(encoded).toString()).toBe(plain);
    }
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(decodeBase32(secret)).toHaveLength(20);
    expect(() => decodeBase32('A1')).toThrow();
  });

  it('builds the otpauth URL authenticator apps scan', () => {
    const text = otpauthUrl('JBSWY3DPEHPK3PXP', 'Switch Board', 'alice@example.com');
    expect(text.startsWith('otpauth://totp/Switch%20Board:alice%40example.com?')).toBe(true);
    const url = new URL(text);
    expect(Object.fromEntries(url.searchParams)).toEqual({ secret: 'JBSWY3DPEHPK3PXP', issuer: 'Switch Board', algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
