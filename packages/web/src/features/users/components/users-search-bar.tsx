import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useGroups } from '../api/list-groups.ts';

export interface UserSearch {
  keyword: string;
  group: string;
}

interface UsersSearchBarProps {
  value: UserSearch;
  onSearch: (search: UserSearch) => void;
  onAdd: () => void;
  onRefresh: () => void;
  refreshing: boolean;
}

/** Keyword (id, username, display name, e-mail) and group filters; both trimmed before searching. */
export function UsersSearchBar({ value, onSearch, onAdd, onRefresh, refreshing }: UsersSearchBarProps) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<UserSearch>();
  const groups = useGroups();

  // Follow the URL (back/forward, a shared link) but not every re-render of the page: that would wipe what is being typed.
  const { keyword, group } = value;
  useEffect(() => form.setFieldsValue({ keyword, group }), [form, keyword, group]);

  const submit = (values: Partial<UserSearch>) => onSearch({ keyword: (values.keyword ?? '').trim(), group: (values.group ?? '').trim() });

  return (
    <Form form={form} name="userSearch" layout="inline" onFinish={submit} initialValues={value} style={{ rowGap: 8 }}>
      <Form.Item name="keyword" style={{ minWidth: 220, flex: '1 1 220px' }}>
        <Input allowClear prefix={<SearchOutlined />} placeholder={t('search.keyword')} aria-label={t('search.keyword')} data-testid="user-keyword" />
      </Form.Item>
      <Form.Item name="group" style={{ minWidth: 160 }}>
        <Select
          allowClear
          placeholder={t('search.group')}
          aria-label={t('search.group')}
          loading={groups.isLoading}
          options={(groups.data ?? []).map((group) => ({ value: group, label: group }))}
          onClear={() => form.setFieldValue('group', '')}
        />
      </Form.Item>
      <Flex gap={8} wrap>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('actions.search', { ns: 'common' })}
        </Button>
        <Button icon={<ReloadOutlined />} onClick={onRefresh} loading={refreshing} aria-label={t('actions.refresh', { ns: 'common' })} />
        <Button icon={<PlusOutlined />} onClick={onAdd} data-testid="add-user">
          {t('add.open')}
        </Button>
      </Flex>
    </Form>
  );
}
