import { Card, Form, Input, InputNumber, Select, Slider, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { UnpricedModelTag } from '../../../components/unpriced-model-tag.tsx';
import { useUnpricedModels } from '../../../lib/unpriced-models.ts';
import { useModels, useUsableGroups } from '../api/playground-options.ts';
import type { PlaygroundSettings } from '../lib/chat-types.ts';

/** Group, model, temperature, max tokens and the system prompt. */
export function SettingsPanel({ value, onChange }: { value: PlaygroundSettings; onChange: (settings: PlaygroundSettings) => void }) {
  const { t } = useTranslation('playground');
  const models = useModels();
  const groups = useUsableGroups();
  const set = (patch: Partial<PlaygroundSettings>) => onChange({ ...value, ...patch });
  const offered = [...new Set([value.model, ...(models.data ?? [])])].filter(Boolean);
  // An administrator sees which offered models would be refused for lack of a price (a call would fail with 400).
  const unpriced = useUnpricedModels(offered);
  const modelOptions = offered.map((name) => ({
    value: name,
    label: unpriced.has(name) ? (
      <span>
        {name}{' '}
        <Tag color="warning" style={{ marginInlineStart: 4 }}>
          {t('unpriced.tag', { ns: 'common' })}
        </Tag>
      </span>
    ) : (
      name
    ),
  }));
  return (
    <Card title={t('settings.title')} size="small">
      <Form layout="vertical">
        <Form.Item label={t('settings.group')}>
          <Select
            value={value.group}
            onChange={(group: string) => set({ group })}
            loading={groups.isLoading}
            options={[{ value: '', label: t('settings.userGroup') }, ...(groups.data ?? []).map((name) => ({ value: name, label: name }))]}
            aria-label={t('settings.group')}
          />
        </Form.Item>
        <Form.Item label={t('settings.model')}>
          <Select
            showSearch
            value={value.model}
            onChange={(model: string) => set({ model })}
            loading={models.isLoading}
            options={modelOptions}
            optionFilterProp="value"
            aria-label={t('settings.model')}
          />
          {unpriced.has(value.model) && (
            <div style={{ marginTop: 4 }}>
              <UnpricedModelTag model={value.model} />
            </div>
          )}
        </Form.Item>
        <Form.Item label={t('settings.temperature', { value: value.temperature })}>
          <Slider min={0.1} max={1} step={0.1} value={value.temperature} onChange={(temperature: number) => set({ temperature })} />
        </Form.Item>
        <Form.Item label={t('settings.maxTokens')}>
          <InputNumber
            min={1}
            precision={0}
            value={value.maxTokens}
            onChange={(maxTokens) => set({ maxTokens: Number(maxTokens ?? 1) })}
            style={{ width: '100%' }}
            aria-label={t('settings.maxTokens')}
          />
        </Form.Item>
        <Form.Item label={t('settings.systemPrompt')} style={{ marginBottom: 0 }}>
          <Input.TextArea
            value={value.systemPrompt}
            onChange={(event) => set({ systemPrompt: event.target.value })}
            autoSize={{ minRows: 3, maxRows: 8 }}
            placeholder={t('settings.systemPromptPlaceholder')}
            aria-label={t('settings.systemPrompt')}
          />
        </Form.Item>
      </Form>
    </Card>
  );
}
