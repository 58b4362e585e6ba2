import { beforeEach, describe, expect, it, vi } from 'vitest';
import { updateOption } from '../api/update-option.ts';
import { saveChangedOptions } from './save-changed-options.ts';

vi.mock('../api/update-option.ts', () => ({ updateOption: vi.fn() }));
const update = vi.mocked(updateOption);

beforeEach(() => {
  update.mockReset();
  update.mockResolvedValue(undefined);
});

describe('saveChangedOptions', () => {
  it('sends nothing and says so when nothing changed, an empty secret meaning "keep"', async () => {
    const result = await saveChangedOptions({ SystemName: 'Gateway', SMTPToken: '' }, { SystemName: 'Gateway' }, new Set(['SMTPToken']));
    expect(result).toEqual({ outcome: 'unchanged' });
    expect(update).not.toHaveBeenCalled();
  });

  it('sends only the changed keys and a typed secret', async () => {
    const result = await saveChangedOptions(
      { SystemName: 'New', Logo: '/logo.svg', SMTPToken: 'secret' },
      { SystemName: 'Old', Logo: '/logo.svg' },
      new Set(['SMTPToken']),
    );
    expect(result).toEqual({ outcome: 'saved' });
    expect(update.mock.calls).toEqual([
      ['SystemName', 'New'],
      ['SMTPToken', 'secret'],
    ]);
  });

  it('tells a partial failure from a complete one, with the first server message', async () => {
    update.mockImplementation((key) => (key === 'A' ? Promise.reject(new Error('refused A')) : Promise.resolve(undefined)));
    expect(await saveChangedOptions({ A: '1', B: '2' }, {}, new Set())).toEqual({ outcome: 'partial', firstError: 'refused A' });
    update.mockRejectedValue(new Error('down'));
    expect(await saveChangedOptions({ A: '1', B: '2' }, {}, new Set())).toEqual({ outcome: 'failed', firstError: 'down' });
  });
});
