import { Button, Flex, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface TokenSearch {
  keyword: string;
  token: string;
}

interface TokensToolbarProps {
  onSearch: (search: TokenSearch) => void;
  onAdd: () => void;
  onCopySelected: () => void;
  onRefresh: () => void;
}

/** Search by name and key (trimmed; empty reloads the list), add, copy selected, refresh. */
export function TokensToolbar({ onSearch, onAdd, onCopySelected, onRefresh }: TokensToolbarProps) {
  const { t } = useTranslation('tokens');
  const [keyword, setKeyword] = useState('');
  const [token, setToken] = useState('');
  const submit = () => onSearch({ keyword: keyword.trim(), token: token.trim() });
  return (
    <Flex gap={8} wrap justify="space-between">
      <Flex gap={8} wrap>
        <Input
          allowClear
          placeholder={t('search.name')}
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          onPressEnter={submit}
          style={{ width: 200 }}
          aria-label={t('search.name')}
        />
        <Input
          allowClear
          placeholder={t('search.key')}
          value={token}
          onChange={(event) => setToken(event.target.value)}
          onPressEnter={submit}
          style={{ width: 220 }}
          aria-label={t('search.key')}
        />
        <Button type="primary" onClick={submit}>
          {t('search.submit')}
        </Button>
      </Flex>
      <Flex gap={8} wrap>
        <Button type="primary" onClick={onAdd}>
          {t('toolbar.add')}
        </Button>
        <Button onClick={onCopySelected}>{t('toolbar.copySelected')}</Button>
        <Button onClick={onRefresh}>{t('toolbar.refresh')}</Button>
      </Flex>
    </Flex>
  );
}
