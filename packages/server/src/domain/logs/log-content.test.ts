import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import { keyedLogContent, logContentKeys } from './log-content.ts';

const localeFolder = join(import.meta.dirname, '..', '..', '..', '..', 'web', 'src', 'locales');

function contentsOf(language: 'zh' | 'en'): Record<string, unknown> {
  const parsed = safeParseJson(readFileSync(join(localeFolder, language, 'logs.json'), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error);
  return ((parsed.value as { contents?: { log?: Record<string, unknown> } }).contents?.log ?? {}) as Record<string, unknown>;
}

describe('log contents by key', () => {
  it.each(['zh', 'en'] as const)('has a %s text in the console for every key the server writes', (language) => {
    const contents = contentsOf(language);
    const missing = logContentKeys.filter((key) => typeof contents[key.replace(/^log\./, '')] !== 'string');
    expect(missing).toEqual([]);
  });

  it("keeps new-api's text in content and names the message in other", () => {
    expect(keyedLogContent('通过兑换码充值 ＄1.000000 额度，兑换码ID 7', 'log.redeem', { quota: 500000, redemption_id: 7 })).toEqual({
      content: '通过兑换码充值 ＄1.000000 额度，兑换码ID 7',
      other: '{"content_key":"log.redeem","content_params":{"quota":500000,"redemption_id":7}}',
    });
  });
});
