import { describe, expect, it } from 'vitest';
import { firstMisshapenKey } from './channel-keys.ts';
import { channelTypes } from './channel-types.ts';

const serviceAccount = JSON.stringify(
  { type: 'service_account', project_id: 'p', private_key: '-----BEGIN PRIVATE KEY-----', client_email: 'a@p.iam' },
  null,
  2,
);

describe('channel key formats', () => {
  it('accepts keys in each strict native format, one per line', () => {
    expect(firstMisshapenKey(15, 'ak|sk')).toBeUndefined();
    expect(firstMisshapenKey(15, 'ak|sk\n ak2 | sk2 ')).toBeUndefined();
    expect(firstMisshapenKey(16, 'abc123.secret')).toBeUndefined();
    expect(firstMisshapenKey(18, 'appid|secret|key')).toBeUndefined();
    expect(firstMisshapenKey(23, '1250000000|AKIDxxxx|secret')).toBeUndefined();
    expect(firstMisshapenKey(33, 'AKIA|secret|us-east-1')).toBeUndefined();
    expect(firstMisshapenKey(33, 'ASIA|secret|session|us-east-1')).toBeUndefined();
    expect(firstMisshapenKey(41, serviceAccount)).toBeUndefined();
  });

  it('names the first key that does not fit', () => {
    expect(firstMisshapenKey(15, 'sk-plain-openai-key')).toBe(1);
    expect(firstMisshapenKey(15, 'ak|sk\nak|')).toBe(2);
    expect(firstMisshapenKey(16, 'no-dot')).toBe(1);
    expect(firstMisshapenKey(16, 'a.b.c')).toBe(1);
    expect(firstMisshapenKey(18, 'appid|secret')).toBe(1);
    expect(firstMisshapenKey(23, 'a||c')).toBe(1);
    expect(firstMisshapenKey(33, 'AKIA|secret')).toBe(1);
    expect(firstMisshapenKey(41, '{"project_id": "p"}')).toBe(1);
    expect(firstMisshapenKey(41, '{not json')).toBe(1);
  });

  it('leaves plain API keys of other types alone', () => {
    expect(firstMisshapenKey(1, 'anything at all')).toBeUndefined();
    expect(firstMisshapenKey(39, 'cf-token')).toBeUndefined();
    expect(firstMisshapenKey(999, 'x')).toBeUndefined();
  });

  it('gives every strict format a pattern to show', () => {
    for (const info of channelTypes) if (info.keyFormat?.shape) expect(info.keyFormat.pattern).not.toBe('');
  });
});
