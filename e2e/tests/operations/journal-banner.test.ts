import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JournalHealth } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localeText } from '../../support/locales.ts';
import { createWorld, type OperationsWorld } from './operations-world.ts';

/**
 * Issue 33 item 6: while the quota journal cannot be written (its next segment is /dev/full, which
 * fails every write with ENOSPC as a full disk does), root sees a banner above every page; once a
 * write lands again it is gone. Chinese, the console's default language.
 */
let world: OperationsWorld;
let journalFolder: string;
let apiKey: string;

beforeAll(async () => {
  journalFolder = mkdtempSync(join(tmpdir(), 'switchboard-e2e-journal-'));
  world = await createWorld({ QUOTA_JOURNAL_DIR: journalFolder });
  const channel = await world.root.post('/api/channel/', {
    mode: 'single',
    channel: { type: 1, name: 'journal-upstream', key: 'sk-journal-upstream', base_url: world.upstream.baseUrl, models: 'gpt-4o-mini', group: 'default' },
  });
  expect(channel.success, channel.message).toBe(true);
  const made = await world.root.post('/api/token/', { name: 'journal-banner', remain_quota: 0, expired_time: -1, unlimited_quota: true });
  expect(made.success, made.message).toBe(true);
  const [token] = (await world.root.get<Array<{ key: string }>>('/api/token/search?keyword=journal-banner')).data;
  apiKey = `sk-${token!.key}`;
});

afterAll(async () => {
  await world?.close();
  if (journalFolder) rmSync(journalFolder, { recursive: true, force: true });
});

async function chat(): Promise<number> {
  const response = await fetch(`${world.server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

const journalWritable = async () => (await world.root.get<JournalHealth>('/api/status/journal')).data.writable;

describe('the quota journal banner', () => {
  it('shows root that charges cannot be journaled, and goes once they can', async () => {
    const text = localeText('common', 'zh');
    const [first] = readdirSync(journalFolder).filter((file) => file.endsWith('.0.log'));
    expect(first).toBeDefined();
    symlinkSync('/dev/full', join(journalFolder, first!.replace(/\.0\.log$/, '.1.log')));
    // Charges until one lands after the flusher moved the journal to the full segment.
    await expect
      .poll(
        async () => {
          expect(await chat()).toBe(200);
          return journalWritable();
        },
        { timeout: 30_000, interval: 200 },
      )
      .toBe(false);

    const { page, context, consoleErrors } = await world.open('/token', { language: 'zh' });
    const banner = page.getByTestId('journal-banner');
    // The first page of a fresh console on a busy machine may take longer than the default 10 s.
    await banner.getByText(text('journalBanner.title')).waitFor({ timeout: 30_000 });
    await banner.getByText(text('journalBanner.serving'), { exact: false }).waitFor();

    // The disk has room again: the next charge starts a fresh segment, and the banner goes.
    expect(await chat()).toBe(200);
    await expect.poll(journalWritable, { timeout: 10_000 }).toBe(true);
    await page.reload();
    await page.locator('.ant-table').first().waitFor();
    expect(await page.getByTestId('journal-banner').count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });
});
