import { describe, expect, it } from 'vitest';
import type { HeaderEdits } from './header-passing.ts';
import { readSyncTarget, syncFields, type SyncTarget } from './sync-fields.ts';

const target = (spec: string): SyncTarget => {
  const read = readSyncTarget(spec);
  if (!read) throw new Error(`not a target: ${spec}`);
  return read;
};

describe('sync_fields', () => {
  it('reads json:, body:, header: and bare targets, and refuses malformed ones', () => {
    expect(readSyncTarget('header:Session_id')).toEqual({ kind: 'header', key: 'session_id' });
    expect(readSyncTarget('json:prompt_cache_key')).toEqual({ kind: 'json', key: 'prompt_cache_key' });
    expect(readSyncTarget('body:metadata.user')).toEqual({ kind: 'json', key: 'metadata.user' });
    expect(readSyncTarget('prompt_cache_key')).toEqual({ kind: 'json', key: 'prompt_cache_key' });
    expect(readSyncTarget('foo:session_id')).toBeUndefined();
    expect(readSyncTarget('header:')).toBeUndefined();
    expect(readSyncTarget('header:bad name')).toBeUndefined();
    expect(readSyncTarget(' ')).toBeUndefined();
  });

  it("fills the body from the caller's header when the body has none", () => {
    const body: Record<string, unknown> = { model: 'gpt-5' };
    const edits: HeaderEdits = new Map();
    expect(syncFields(target('header:session_id'), target('json:prompt_cache_key'), body, edits, { caller: { session_id: 'sess-123' } })).toBe(true);
    expect(body).toEqual({ model: 'gpt-5', prompt_cache_key: 'sess-123' });
  });

  it('fills the header from the body when the header is missing', () => {
    const edits: HeaderEdits = new Map();
    syncFields(target('header:session_id'), target('json:prompt_cache_key'), { prompt_cache_key: 'cache-abc' }, edits, { caller: {} });
    expect(edits).toEqual(new Map([['session_id', 'cache-abc']]));
  });

  it('changes nothing when both sides or neither side have a value, or the value would split a header', () => {
    const body: Record<string, unknown> = { prompt_cache_key: 'cache-body' };
    const edits: HeaderEdits = new Map();
    expect(syncFields(target('header:session_id'), target('prompt_cache_key'), body, edits, { caller: { session_id: 'other' } })).toBe(false);
    expect(syncFields(target('header:x-a'), target('json:b'), {}, edits, { caller: {} })).toBe(false);
    syncFields(target('header:x-a'), target('json:b'), { b: 'line\r\nX-Injected: 1' }, edits, { caller: {} });
    expect(edits.size).toBe(0);
    expect(body).toEqual({ prompt_cache_key: 'cache-body' });
  });
});
