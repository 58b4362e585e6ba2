import { describe, expect, it } from 'vitest';
import { compareLocales } from './locale-check.ts';

describe('compareLocales', () => {
  it('accepts matching trees', () => {
    const tree = { a: { b: 'x {{n}}' } };
    expect(compareLocales({ zh: { common: tree }, en: { common: { a: { b: 'y {{n}}' } } } })).toEqual([]);
  });

  it('reports missing files, missing and extra keys, empty strings and placeholder drift', () => {
    const problems = compareLocales({
      zh: { common: { a: '甲 {{count}}', b: '乙' }, auth: { title: '登录' } },
      en: { common: { a: 'A {{total}}', c: 'C', b: '' } },
    });
    expect(problems).toEqual([
      'en/auth.json is missing',
      'en/common.json: "b" is empty or not a string',
      'en/common.json: "a" has placeholders {total} but zh has {count}',
      'en/common.json: "c" is not in zh',
    ]);
  });
});
