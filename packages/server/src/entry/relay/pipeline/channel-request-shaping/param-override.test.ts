import { describe, expect, it } from 'vitest';
import { applyParamOverride, readParamOverride, type ParamOverride } from './param-override.ts';

function overrideOf(value: unknown): ParamOverride {
  const override = readParamOverride(value);
  if (override === undefined || override === 'invalid') throw new Error(`not an override: ${JSON.stringify(value)}`);
  return override;
}

function run(body: Record<string, unknown>, operations: unknown[]) {
  const outcome = applyParamOverride(body, overrideOf({ operations }));
  return { body, outcome };
}

describe('reading param_override', () => {
  it('tells the classic format from the operations format', () => {
    expect(readParamOverride({ temperature: 0.1 })).toEqual({ kind: 'classic', fields: { temperature: 0.1 } });
    expect(readParamOverride({ operations: [{ path: 'a', mode: 'set', value: 1 }] })).toMatchObject({ kind: 'operations' });
    // As new-api: `operations` that are not a list of operations are a plain top-level key.
    expect(readParamOverride({ operations: 'x' })).toEqual({ kind: 'classic', fields: { operations: 'x' } });
    expect(readParamOverride({})).toBeUndefined();
  });

  it('refuses an unknown mode or a regex that does not compile', () => {
    expect(readParamOverride({ operations: [{ path: 'a', mode: 'explode' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ path: 'a', mode: 'regex_replace', from: '(' }] })).toBe('invalid');
    expect(readParamOverride([1, 2])).toBe('invalid');
  });
});

describe('classic param_override', () => {
  it('overwrites top-level keys as literal names', () => {
    const body: Record<string, unknown> = { model: 'a', temperature: 1 };
    applyParamOverride(body, overrideOf({ temperature: 0.2, 'x.y': true, top_k: 5 }));
    expect(body).toEqual({ model: 'a', temperature: 0.2, 'x.y': true, top_k: 5 });
  });
});

describe('param_override operations', () => {
  it('set writes a path, keep_origin keeps what is there', () => {
    expect(run({ a: 1 }, [{ path: 'b.c', mode: 'set', value: [1] }]).body).toEqual({ a: 1, b: { c: [1] } });
    expect(run({ a: 1 }, [{ path: 'a', mode: 'set', value: 2, keep_origin: true }]).body).toEqual({ a: 1 });
  });

  it('delete removes a path; a missing one changes nothing', () => {
    expect(run({ a: 1, b: 2 }, [{ path: 'b', mode: 'delete' }]).body).toEqual({ a: 1 });
    expect(run({ a: 1 }, [{ path: 'z', mode: 'delete' }]).outcome).toEqual({ changed: false });
  });

  it('move and copy take from one path to another; a missing source fails the request on the channel', () => {
    expect(run({ a: { b: 1 } }, [{ mode: 'move', from: 'a.b', to: 'c' }]).body).toEqual({ a: {}, c: 1 });
    expect(run({ a: 1 }, [{ mode: 'copy', from: 'a', to: 'b' }]).body).toEqual({ a: 1, b: 1 });
    expect(run({ a: 1 }, [{ mode: 'move', from: 'nope', to: 'b' }]).outcome).toMatchObject({ refused: { status: 500, retryable: true } });
  });

  it('prepend and append join arrays, strings and objects', () => {
    const body = { list: [2], text: 'mid', object: { a: 1, b: null } };
    run(body, [
      { path: 'list', mode: 'prepend', value: [0, 1] },
      { path: 'list', mode: 'append', value: 3 },
      { path: 'text', mode: 'prepend', value: '<' },
      { path: 'text', mode: 'append', value: '>' },
      { path: 'object', mode: 'append', value: { a: 9, b: 2, c: 3 }, keep_origin: true },
    ]);
    expect(body).toEqual({ list: [0, 1, 2, 3], text: '<mid>', object: { a: 1, b: 2, c: 3 } });
    expect(run({ n: 1 }, [{ path: 'n', mode: 'append', value: 2 }]).outcome).toMatchObject({ refused: { code: 'channel_param_override_invalid' } });
    expect(run({}, [{ path: 'stop', mode: 'append', value: ['END'] }]).body).toEqual({ stop: ['END'] });
  });

  it('edits strings: trim and ensure affixes, spaces, case, replace and regex_replace', () => {
    const body = { a: 'openai/gpt-4o', b: 'gpt-4o', c: '  x  ', d: 'MiXed', e: 'MiXed', f: 'a-b-c', g: 'v1.2.3', n: 5 };
    run(body, [
      { path: 'a', mode: 'trim_prefix', value: 'openai/' },
      { path: 'b', mode: 'ensure_prefix', value: 'openai/' },
      { path: 'b', mode: 'ensure_suffix', value: ':free' },
      { path: 'c', mode: 'trim_space' },
      { path: 'd', mode: 'to_lower' },
      { path: 'e', mode: 'to_upper' },
      { path: 'f', mode: 'replace', from: '-', to: '_' },
      { path: 'g', mode: 'regex_replace', from: '^v(\\d+)\\..*$', to: 'major $1' },
      { path: 'n', mode: 'to_lower' },
    ]);
    expect(body).toEqual({ a: 'gpt-4o', b: 'openai/gpt-4o:free', c: 'x', d: 'mixed', e: 'MIXED', f: 'a_b_c', g: 'major 1', n: 5 });
    expect(run({ a: 'x:free' }, [{ path: 'a', mode: 'trim_suffix', value: ':free' }]).body).toEqual({ a: 'x' });
  });

  it('runs an operation only when its conditions hold', () => {
    const operations = [{ path: 'max_tokens', mode: 'set', value: 4096, conditions: [{ path: 'max_tokens', mode: 'gt', value: 4096 }] }];
    expect(run({ max_tokens: 10000 }, operations).body).toEqual({ max_tokens: 4096 });
    expect(run({ max_tokens: 100 }, operations).body).toEqual({ max_tokens: 100 });
  });

  it('return_error and block refuse the request; pass stops the list', () => {
    const refused = run({ model: 'x' }, [{ mode: 'return_error', value: { message: 'not here', status_code: 403, code: 'forbidden_model' } }]);
    expect(refused.outcome).toEqual({
      refused: { status: 403, code: 'forbidden_model', type: 'invalid_request_error', message: 'not here', retryable: false },
    });
    expect(run({}, [{ mode: 'return_error', value: { message: 'try elsewhere', skip_retry: false } }]).outcome).toMatchObject({
      refused: { status: 400, retryable: true },
    });
    expect(run({}, [{ mode: 'block' }]).outcome).toMatchObject({ refused: { message: 'request blocked by param override conditions' } });
    const passed = run({ a: 1 }, [
      { mode: 'pass', conditions: [{ path: 'a', mode: 'full', value: 1 }] },
      { path: 'a', mode: 'set', value: 2 },
    ]);
    expect(passed.body).toEqual({ a: 1 });
  });

  it('never shares the configured value with the body it writes', () => {
    const override = overrideOf({ operations: [{ path: 'tags', mode: 'set', value: ['x'] }] });
    const first: Record<string, unknown> = {};
    applyParamOverride(first, override);
    (first.tags as string[]).push('changed');
    const second: Record<string, unknown> = {};
    applyParamOverride(second, override);
    expect(second).toEqual({ tags: ['x'] });
  });
});

describe('param_override header operations', () => {
  it('set_header and delete_header edit the upstream headers, not the body', () => {
    const override = overrideOf({
      operations: [
        { path: 'X-Route', mode: 'set_header', value: 'blue', conditions: [{ path: 'stream', mode: 'full', value: true }] },
        { path: 'OpenAI-Organization', mode: 'delete_header' },
      ],
    });
    const body: Record<string, unknown> = { stream: true };
    expect(applyParamOverride(body, override)).toEqual({
      changed: false,
      headerEdits: new Map([
        ['x-route', 'blue'],
        ['openai-organization', undefined],
      ]),
    });
    expect(body).toEqual({ stream: true });
  });

  it('refuses a header operation that cannot be a header', () => {
    expect(readParamOverride({ operations: [{ path: 'bad name', mode: 'set_header', value: 'x' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ path: 'x-a', mode: 'set_header', value: 'a\r\nb: c' }] })).toBe('invalid');
  });
});

describe('param_override header passing (copy_header, move_header, pass_headers)', () => {
  const sources = { channel: { 'x-channel-auth': 'channel-secret' }, caller: { authorization: 'Bearer caller', session_id: 'sess-123' } };
  const edits = (operations: unknown[]) => {
    const outcome = applyParamOverride({}, overrideOf({ operations }), sources);
    if (outcome.refused) throw new Error('refused');
    return outcome.headerEdits;
  };

  it("copy_header copies the caller's header (or the channel's own) to another name; a missing one is skipped", () => {
    expect(edits([{ mode: 'copy_header', from: 'Authorization', to: 'X-Upstream-Auth' }])).toEqual(new Map([['x-upstream-auth', 'Bearer caller']]));
    expect(edits([{ mode: 'copy_header', from: 'x-channel-auth', to: 'x-other' }])).toEqual(new Map([['x-other', 'channel-secret']]));
    expect(edits([{ mode: 'copy_header', from: 'X-Missing', to: 'x-target' }])).toBeUndefined();
  });

  it('move_header copies then removes the source; path stands for a missing from or to', () => {
    expect(edits([{ mode: 'move_header', from: 'x-channel-auth', to: 'x-api-key' }])).toEqual(
      new Map([
        ['x-api-key', 'channel-secret'],
        ['x-channel-auth', undefined],
      ]),
    );
    expect(edits([{ mode: 'copy_header', path: 'session_id' }])).toEqual(new Map([['session_id', 'sess-123']]));
  });

  it('pass_headers forwards the listed caller headers it finds, keep_origin keeps the channel’s own', () => {
    expect(edits([{ mode: 'pass_headers', value: ['X-Codex-Beta-Features', 'Session_id'] }])).toEqual(new Map([['session_id', 'sess-123']]));
    const kept = applyParamOverride({}, overrideOf({ operations: [{ mode: 'pass_headers', value: 'x-channel-auth', keep_origin: true }] }), {
      ...sources,
      caller: { 'x-channel-auth': 'from-caller' },
    });
    expect(kept).toEqual({ changed: false });
  });

  it('refuses a header mode without usable names', () => {
    expect(readParamOverride({ operations: [{ mode: 'copy_header', from: 'x-a' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ mode: 'move_header', from: 'bad name', to: 'x-b' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ mode: 'pass_headers' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ mode: 'pass_headers', value: [] }] })).toBe('invalid');
  });
});

describe('param_override prune_objects', () => {
  it('removes matching objects at the path, or anywhere in the body without one', () => {
    const body = {
      a: {
        items: [
          { type: 'redacted_thinking', id: 1 },
          { type: 'output_text', id: 2 },
        ],
      },
      b: { items: [{ type: 'redacted_thinking', id: 3 }] },
    };
    expect(run(body, [{ path: 'a', mode: 'prune_objects', value: { where: { type: 'redacted_thinking' } } }]).outcome).toEqual({ changed: true });
    expect(body).toEqual({ a: { items: [{ type: 'output_text', id: 2 }] }, b: { items: [{ type: 'redacted_thinking', id: 3 }] } });
    run(body, [{ mode: 'prune_objects', value: 'redacted_thinking' }]);
    expect(body).toEqual({ a: { items: [{ type: 'output_text', id: 2 }] }, b: { items: [] } });
  });

  it('a missing path changes nothing; a rule without conditions is refused', () => {
    expect(run({ a: 1 }, [{ path: 'nowhere', mode: 'prune_objects', value: 'x' }]).outcome).toEqual({ changed: false });
    expect(readParamOverride({ operations: [{ mode: 'prune_objects' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ mode: 'prune_objects', value: { recursive: true } }] })).toBe('invalid');
  });
});

describe('param_override wildcard paths', () => {
  it('delete, set and the string modes run on every path a * names', () => {
    const tools = () => ({
      tools: [
        { type: 'bash', custom: { input_examples: ['a'], name: ' alpha ' } },
        { type: 'code', custom: { input_examples: ['b'], name: 'beta ' } },
        { type: 'noop', other: 2 },
      ],
    });
    expect(run(tools(), [{ path: 'tools.*.custom.input_examples', mode: 'delete' }]).body).toEqual({
      tools: [
        { type: 'bash', custom: { name: ' alpha ' } },
        { type: 'code', custom: { name: 'beta ' } },
        { type: 'noop', other: 2 },
      ],
    });
    expect(run(tools(), [{ path: 'tools.*.custom.name', mode: 'trim_space' }]).body).toMatchObject({
      tools: [{ custom: { name: 'alpha' } }, { custom: { name: 'beta' } }, { other: 2 }],
    });
    expect(run(tools(), [{ path: 'tools.*.enabled', mode: 'set', value: true }]).body).toMatchObject({
      tools: [{ enabled: true }, { enabled: true }, { enabled: true }],
    });
  });

  it('keep_origin is judged per path; a wildcard that names nothing skips the operation', () => {
    const body = { tools: [{ custom: {} }, { custom: { enabled: false } }] };
    run(body, [{ path: 'tools.*.custom.enabled', mode: 'set', value: true, keep_origin: true }]);
    expect(body).toEqual({ tools: [{ custom: { enabled: true } }, { custom: { enabled: false } }] });
    expect(run({ tools: 'none' }, [{ path: 'tools.*.name', mode: 'append', value: 'x' }]).outcome).toEqual({ changed: false });
  });

  it('equals the same operation written once per index', () => {
    const wildcard = run({ m: [{ c: 'a' }, { c: 'b' }] }, [{ path: 'm.*.c', mode: 'to_upper' }]).body;
    const indexed = run({ m: [{ c: 'a' }, { c: 'b' }] }, [
      { path: 'm.0.c', mode: 'to_upper' },
      { path: 'm.1.c', mode: 'to_upper' },
    ]).body;
    expect(wildcard).toEqual(indexed);
  });
});

describe('param_override array_remove', () => {
  it('drops the list items whose field equals the value, of the same type; wildcards reach every list', () => {
    const body = {
      tools: [{ type: 'web_search' }, { type: 'function', function: { name: 'a' } }, { type: 'web_search' }, 'web_search'],
      messages: [{ content: [{ type: 'image', n: 1 }, { type: 'text' }] }, { content: [{ type: 'image', n: '1' }] }],
    };
    expect(run(body, [{ path: 'tools', mode: 'array_remove', match: { path: 'type', eq: 'web_search' } }]).outcome).toEqual({ changed: true });
    expect(body.tools).toEqual([{ type: 'function', function: { name: 'a' } }, 'web_search']);
    run(body, [{ path: 'messages.*.content', mode: 'array_remove', match: { path: 'n', eq: 1 } }]);
    expect(body.messages).toEqual([{ content: [{ type: 'text' }] }, { content: [{ type: 'image', n: '1' }] }]);
    expect(run({ tools: 'x' }, [{ path: 'tools', mode: 'array_remove', match: { path: 'type', eq: 'x' } }]).outcome).toEqual({ changed: false });
  });

  it('refuses one without a path, a match path or a scalar eq', () => {
    expect(readParamOverride({ operations: [{ mode: 'array_remove', match: { path: 'type', eq: 'x' } }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ path: 'tools', mode: 'array_remove', match: { eq: 'x' } }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ path: 'tools', mode: 'array_remove', match: { path: 'type', eq: null } }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ path: 'tools', mode: 'array_remove', match: { path: 'type', eq: { a: 1 } } }] })).toBe('invalid');
  });
});

describe('param_override sync_fields', () => {
  it("copies the caller's session header into the body, or the body's key into the header", () => {
    const operations = [{ mode: 'sync_fields', from: 'header:session_id', to: 'json:prompt_cache_key' }];
    const fromHeader: Record<string, unknown> = { model: 'gpt-5' };
    expect(applyParamOverride(fromHeader, overrideOf({ operations }), { caller: { session_id: 'sess-1' } })).toEqual({ changed: true });
    expect(fromHeader).toEqual({ model: 'gpt-5', prompt_cache_key: 'sess-1' });
    expect(applyParamOverride({ prompt_cache_key: 'cache-2' }, overrideOf({ operations }), { caller: {} })).toEqual({
      changed: false,
      headerEdits: new Map([['session_id', 'cache-2']]),
    });
  });

  it('refuses a side with an unknown prefix or no key', () => {
    expect(readParamOverride({ operations: [{ mode: 'sync_fields', from: 'foo:a', to: 'json:b' }] })).toBe('invalid');
    expect(readParamOverride({ operations: [{ mode: 'sync_fields', from: 'header:a' }] })).toBe('invalid');
  });
});
