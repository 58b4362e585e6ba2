import { Card, Form, Input, InputNumber, Select, Slider } from 'antd';
import { useTranslation } from 'react-i18next';
import { useModels, useUsableGroups } from '../api/playground-options.ts';
import type { PlaygroundSettings } from '../lib/chat-types.ts';

/** Group, model, temperature, max tokens and the system prompt. */
export function SettingsPanel({ value, onChange }: { value: PlaygroundSettings; onChange: (settings: PlaygroundSettings) => void }) {
  const { t } = useTranslation('playground');
  const models = useModels();
  const groups = useUsableGroups();
  const set = (patch: Partial<PlaygroundSettings>) => onChange({ ...value, ...patch });
  const modelOptions = [...new Set([value.model, ...(models.data ?? [])])].filter(Boolean).map((name) => ({ value: name, label: name }));
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
            aria-label={t('settings.model')}
          />
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
