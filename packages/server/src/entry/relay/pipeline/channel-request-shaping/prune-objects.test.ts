import { describe, expect, it } from 'vitest';
import { pruneObjects, readPruneRule, type PruneRule } from './prune-objects.ts';

function ruleOf(value: unknown): PruneRule {
  const rule = readPruneRule(value);
  if (!rule) throw new Error(`not a prune rule: ${JSON.stringify(value)}`);
  return rule;
}

describe('prune_objects', () => {
  it('a type name removes every object of that type, at any depth', () => {
    const body = {
      messages: [
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'a' },
            { type: 'redacted_thinking', data: 'x' },
          ],
        },
        { role: 'assistant', content: [{ type: 'wrapper', parts: [{ type: 'redacted_thinking' }, { type: 'text', text: 'c' }] }] },
      ],
    };
    expect(pruneObjects(body, ruleOf('redacted_thinking'))).toBe(true);
    expect(body).toEqual({
      messages: [
        { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
        { role: 'assistant', content: [{ type: 'wrapper', parts: [{ type: 'text', text: 'c' }] }] },
      ],
    });
  });

  it('where, type and conditions are all required together (AND by default), OR on request', () => {
    const items = () => [
      { type: 'a', id: 1 },
      { type: 'a', id: 2 },
      { type: 'b', id: 1 },
    ];
    const and = items();
    pruneObjects(and, ruleOf({ type: 'a', where: { id: 1 } }));
    expect(and).toEqual([
      { type: 'a', id: 2 },
      { type: 'b', id: 1 },
    ]);
    const or = items();
    pruneObjects(
      or,
      ruleOf({
        logic: 'OR',
        conditions: [
          { path: 'type', mode: 'full', value: 'b' },
          { path: 'id', mode: 'gte', value: 2 },
        ],
      }),
    );
    expect(or).toEqual([{ type: 'a', id: 1 }]);
  });

  it('without recursive, only the list items themselves are looked at', () => {
    const list = [{ type: 'x' }, { type: 'y', inner: [{ type: 'x' }] }];
    pruneObjects(list, ruleOf({ type: 'x', recursive: false }));
    expect(list).toEqual([{ type: 'y', inner: [{ type: 'x' }] }]);
  });

  it('a field holding a matching object loses the field; nothing matching changes nothing', () => {
    const body = { keep: { type: 'ok' }, drop: { type: 'gone' } };
    expect(pruneObjects(body, ruleOf({ where: { type: 'gone' } }))).toBe(true);
    expect(body).toEqual({ keep: { type: 'ok' } });
    expect(pruneObjects(body, ruleOf('absent'))).toBe(false);
  });

  it('refuses a rule that names no condition or is malformed', () => {
    expect(readPruneRule('')).toBeUndefined();
    expect(readPruneRule({})).toBeUndefined();
    expect(readPruneRule({ where: 'type' })).toBeUndefined();
    expect(readPruneRule({ conditions: [{ path: 'type' }] })).toBeUndefined();
    expect(readPruneRule(5)).toBeUndefined();
  });
});
