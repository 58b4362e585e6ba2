import { describe, expect, it } from 'vitest';
import { keyedContentOf } from './log-content.ts';

describe('keyedContentOf', () => {
  it('reads the key and the text and number params the server wrote', () => {
    expect(keyedContentOf('{"content_key":"log.redeem","content_params":{"quota":500000,"redemption_id":7,"x":{"y":1}}}')).toEqual({
      key: 'log.redeem',
      params: { quota: 500000, redemption_id: 7 },
    });
  });

  it('finds none in older rows, consume rows and unreadable text, so they show as stored', () => {
    expect(keyedContentOf('')).toBeUndefined();
    expect(keyedContentOf('{"model_ratio":1,"frt":120}')).toBeUndefined();
    expect(keyedContentOf('not json')).toBeUndefined();
    expect(keyedContentOf('{"content_key":"../../etc"}')).toBeUndefined();
  });
});
