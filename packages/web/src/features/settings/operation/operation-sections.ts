import type { OptionField } from '../lib/option-field.ts';

const switchOf = (key: string): OptionField => ({ key, kind: 'switch' });
const count = (key: string, min = 0): OptionField => ({ key, kind: 'number', min });

/** The operation tab's plain sections (the log and model-pricing sections have their own components). */
export const operationSections: ReadonlyArray<{ id: string; fields: readonly OptionField[] }> = [
  {
    id: 'general',
    fields: [
      { key: 'TopUpLink', kind: 'text' },
      { key: 'ChatLink', kind: 'text' },
      { key: 'ChatLink2', kind: 'text' },
      { key: 'QuotaPerUnit', kind: 'number', min: 0, decimal: true },
      count('RetryTimes'),
      switchOf('DisplayInCurrencyEnabled'),
      switchOf('DisplayTokenStatEnabled'),
      switchOf('DefaultCollapseSidebar'),
    ],
  },
  {
    id: 'drawing',
    fields: ['DrawingEnabled', 'MjNotifyEnabled', 'MjAccountFilterEnabled', 'MjForwardUrlEnabled', 'MjModeClearEnabled', 'MjActionCheckSuccessEnabled'].map(
      switchOf,
    ),
  },
  {
    id: 'sensitive',
    fields: [
      ...['CheckSensitiveEnabled', 'CheckSensitiveOnPromptEnabled', 'CheckSensitiveOnCompletionEnabled', 'StopOnSensitiveEnabled'].map(switchOf),
      { key: 'SensitiveWords', kind: 'textarea', rows: 4, help: true },
    ],
  },
  {
    id: 'dashboard',
    fields: [
      switchOf('DataExportEnabled'),
      { key: 'DataExportInterval', kind: 'number', min: 1, help: true },
      { key: 'DataExportDefaultTime', kind: 'select', choices: ['hour', 'day', 'week'] },
    ],
  },
  {
    id: 'monitoring',
    fields: [
      { key: 'ChannelDisableThreshold', kind: 'number', min: 0, decimal: true, help: true },
      count('QuotaRemindThreshold'),
      switchOf('AutomaticDisableChannelEnabled'),
      switchOf('AutomaticEnableChannelEnabled'),
    ],
  },
  {
    id: 'quota',
    fields: [count('QuotaForNewUser'), count('PreConsumedQuota'), count('QuotaForInviter'), count('QuotaForInvitee'), count('StreamCacheQueueLength')],
  },
  {
    id: 'chats',
    fields: [{ key: 'Chats', kind: 'json', help: true }],
  },
  {
    id: 'groups',
    fields: [
      { key: 'GroupRatio', kind: 'json', help: true },
      { key: 'UserUsableGroups', kind: 'json', help: true },
    ],
  },
];
