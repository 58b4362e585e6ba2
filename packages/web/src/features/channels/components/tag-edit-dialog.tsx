import { useMutation } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllModels, useGroups } from '../api/catalogue-queries.ts';
import { updateTag, type TagEdit } from '../api/update-tag.ts';
import { isJsonObjectOrEmpty } from '../lib/channel-form.ts';
import type { TagRow } from '../lib/tag-rows.ts';

interface TagFormValues {
  new_tag: string;
  models: string[];
  groups: string[];
  model_mapping: string;
}

/** Overwrite-only edit of every channel of a tag: new name (empty dissolves it), models, groups, mapping. */
export function TagEditDialog({ row, onClose, onSaved }: { row: TagRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const [form] = Form.useForm<TagFormValues>();
  const groups = useGroups();
  const models = useAllModels();

  useEffect(() => {
    if (row) form.setFieldsValue({ new_tag: row.tag, models: [], groups: [], model_mapping: '' });
  }, [row, form]);

  const save = useMutation({
    mutationFn: (edit: TagEdit) => updateTag(edit),
    onSuccess: () => {
      void message.success(t('messages.tagUpdated'));
      onSaved();
      onClose();
    },
    onError: (error: Error) => void message.error(error.message),
  });

  function submit(values: TagFormValues) {
    if (!row) return;
    const edit: TagEdit = { tag: row.tag };
    if (values.new_tag.trim() !== row.tag) edit.new_tag = values.new_tag.trim();
    if (values.models.length > 0) edit.models = values.models.join(',');
    if (values.groups.length > 0) edit.groups = values.groups.join(',');
    if (values.model_mapping.trim()) edit.model_mapping = values.model_mapping.trim();
    if (Object.keys(edit).length === 1) {
      void message.info(t('messages.noChanges'));
      return;
    }
    save.mutate(edit);
  }

  return (
    <Modal
      open={row !== null}
      title={t('tagDialog.title', { tag: row?.tag ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="new_tag" label={t('tagDialog.newTag')} extra={t('tagDialog.newTagHelp')}>
          <Input allowClear />
        </Form.Item>
        {/* The note covers every field below it, so it sits above them rather than under the first. */}
        <Typography.Paragraph type="secondary">{t('tagDialog.overwriteHelp')}</Typography.Paragraph>
        <Form.Item name="models" label={t('tagDialog.models')}>
          <Select
            mode="tags"
            allowClear
            options={(models.data ?? []).map((name) => ({ value: name, label: name }))}
            placeholder={t('tagDialog.modelsPlaceholder', { models: row?.models ?? '' })}
          />
        </Form.Item>
        <Form.Item name="groups" label={t('tagDialog.groups')}>
          <Select mode="multiple" allowClear options={(groups.data ?? []).map((name) => ({ value: name, label: name }))} placeholder={row?.group} />
        </Form.Item>
        <Form.Item
          name="model_mapping"
          label={t('tagDialog.modelMapping')}
          rules={[
            {
              validator: async (_rule, value: string) => {
                if (!isJsonObjectOrEmpty(value)) throw new Error(t('form.mappingInvalid'));
              },
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} placeholder={t('tagDialog.mappingPlaceholder')} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
