import { describe, expect, it } from 'vitest';
import { withTopLevelFields } from './top-level-fields.ts';

const spliced = (text: string, fields: Record<string, unknown>) => withTopLevelFields(Buffer.from(text), fields)?.toString('utf8');

describe('setting top-level fields of a JSON body by splicing its bytes', () => {
  it('replaces a member and keeps every other byte as sent', () => {
    const body = '{ "model" : "gpt-4o",\n "messages":[{"role":"user","content":"say \\"}\\" {[ ]"}], "n":1 }';
    expect(spliced(body, { model: 'mapped' })).toBe('{ "model" : "mapped",\n "messages":[{"role":"user","content":"say \\"}\\" {[ ]"}], "n":1 }');
  });

  it('adds a member that is not there, after the others', () => {
    const body = '{"model":"m","stream":true}';
    expect(JSON.parse(spliced(body, { stream_options: { include_usage: true } })!)).toEqual({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(spliced('{}', { model: 'm' })).toBe('{"model":"m"}');
    expect(spliced(' { } ', { model: 'm' })).toBe(' { "model":"m"} ');
  });

  it('gives the same object as editing the parsed body would, for nested values, escapes and numbers', () => {
    const original = {
      model: 'gpt-4o',
      stream: true,
      stream_options: { other: [1, { deep: '}' }] },
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${'QUJD'.repeat(1000)}` } }] }],
      temperature: -0.5e-3,
      stop: null,
      name: 'back\\slash "quoted" 中文',
    };
    const edits = { model: 'upstream-model', stream_options: { ...original.stream_options, include_usage: true } };
    for (const text of [JSON.stringify(original), JSON.stringify(original, null, 2)]) {
      expect(JSON.parse(spliced(text, edits)!)).toEqual({ ...original, ...edits });
    }
  });

  it('replaces every member of a repeated name (a parser keeps the last one)', () => {
    expect(JSON.parse(spliced('{"model":"a","x":1,"model":"b"}', { model: 'c' })!)).toEqual({ model: 'c', x: 1 });
    expect(spliced('{"model":"a","x":1,"model":"b"}', { model: 'c' })).toBe('{"model":"c","x":1,"model":"c"}');
  });

  it('refuses what is not one JSON object, so the caller serialises its parsed copy', () => {
    for (const text of ['', '[1]', '"s"', '{"a":1', '{"a" 1}', '{"a":"open}', '{"a":1}{', '{"a":1,}', '{a:1}'])
      expect(spliced(text, { model: 'm' })).toBeUndefined();
  });
});
