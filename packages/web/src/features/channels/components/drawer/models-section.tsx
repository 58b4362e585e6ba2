import { findChannelType } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Form, Input, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllModels, useModelsByType } from '../../api/catalogue-queries.ts';
import { fetchChannelModels, fetchModelsWithKey } from '../../api/fetch-models.ts';
import { UnpricedModelTag } from '../../../../components/unpriced-model-tag.tsx';
import { useUnpricedModels } from '../../../../lib/unpriced-models.ts';

/** Models with fill related, fill all, fetch list, clear and a custom entry; and the default test model. */
export function ModelsSection({ channelId }: { channelId?: number }) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const form = Form.useFormInstance();
  const models = Form.useWatch<string[] | undefined>('models') ?? [];
  const type = Form.useWatch<number | undefined>('type') ?? 1;
  const [custom, setCustom] = useState('');
  const allModels = useAllModels();
  const byType = useModelsByType();
  // Models callers could not use for lack of a price: marked in the list and named below it.
  const unpriced = useUnpricedModels(models);
  const unpricedChosen = models.filter((model) => unpriced.has(model));

  const setModels = (next: string[]) => form.setFieldValue('models', [...new Set(next)]);
  const related = () => byType.data?.[String(type)] ?? [...(findChannelType(type)?.defaultModels ?? [])];

  const fetchList = useMutation({
    mutationFn: async () => {
      if (channelId !== undefined) return fetchChannelModels(channelId);
      const key = String(form.getFieldValue('key') ?? '').trim();
      if (!key) throw new Error(t('form.fetchNeedsKey'));
      // The whole key text: the server takes its first key, and a Vertex JSON credential spans many lines.
      return fetchModelsWithKey({
        base_url: String(form.getFieldValue('base_url') ?? '').trim(),
        type,
        key,
        other: String(form.getFieldValue('other') ?? '').trim(),
      });
    },
    onSuccess: (fetched) => {
      setModels([...models, ...fetched]);
      void message.success(t('form.fetched', { count: fetched.length }));
    },
    onError: (error: Error) => void message.error(error.message),
  });

  function addCustom() {
    const names = custom
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (names.length === 0) return;
    const fresh = names.filter((name) => !models.includes(name));
    if (fresh.length < names.length) void message.warning(t('form.modelsExist'));
    setModels([...models, ...fresh]);
    setCustom('');
  }

  return (
    <>
      <Form.Item label={t('form.models')} required style={{ marginBottom: 8 }}>
        <Form.Item name="models" noStyle rules={[{ required: true, type: 'array', min: 1, message: t('form.modelsRequired') }]}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('form.modelsPlaceholder')}
            options={(allModels.data ?? []).map((name) => ({ value: name, label: name }))}
            maxTagCount={40}
            tagRender={({ value, label, closable, onClose }) => (
              <Tag color={unpriced.has(String(value)) ? 'warning' : undefined} closable={closable} onClose={onClose} style={{ marginInlineEnd: 4 }}>
                {label}
              </Tag>
            )}
          />
        </Form.Item>
      </Form.Item>
      {unpricedChosen.length > 0 && (
        <Flex vertical gap={4} style={{ marginBottom: 8 }} data-testid="drawer-unpriced-models">
          <Typography.Text type="warning">{t('form.unpricedModels')}</Typography.Text>
          {unpricedChosen.map((model) => (
            <Flex key={model} gap={8} align="center" wrap>
              <Typography.Text code>{model}</Typography.Text>
              <UnpricedModelTag model={model} />
            </Flex>
          ))}
        </Flex>
      )}
      <Flex gap={6} wrap style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => setModels([...models, ...related()])}>
          {t('form.fillRelated')}
        </Button>
        <Button size="small" loading={allModels.isLoading} onClick={() => setModels([...models, ...(allModels.data ?? [])])}>
          {t('form.fillAll')}
        </Button>
        <Button size="small" loading={fetchList.isPending} onClick={() => fetchList.mutate()}>
          {t('form.fetchList')}
        </Button>
        <Button size="small" danger onClick={() => setModels([])}>
          {t('form.clearModels')}
        </Button>
      </Flex>
      <Space.Compact style={{ width: '100%', marginBottom: 24 }}>
        <Input
          value={custom}
          onChange={(event) => setCustom(event.target.value)}
          onPressEnter={(event) => {
            event.preventDefault();
            addCustom();
          }}
          placeholder={t('form.customModel')}
          aria-label={t('form.customModel')}
        />
        <Button onClick={addCustom}>{t('form.addCustom')}</Button>
      </Space.Compact>
      <Form.Item name="test_model" label={t('form.testModel')} extra={t('form.testModelHelp')}>
        <Select
          allowClear
          showSearch
          options={models.map((name) => ({ value: name, label: name }))}
          placeholder={models[0] ?? t('form.testModelPlaceholder')}
        />
      </Form.Item>
    </>
  );
}
