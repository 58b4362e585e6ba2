import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Empty, Flex, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions, useAppendingPages } from '../../components/use-appending-pages.ts';
import { useCopyWithFallback } from '../../components/use-copy-with-fallback.tsx';
import { useQuotaFormatter } from '../../lib/system-status.ts';
import { listTokens } from './api/list-tokens.ts';
import { searchTokens } from './api/search-tokens.ts';
import { fullKey, tokensQueryKey, type Token } from './api/token-types.ts';
import { tokenColumns } from './components/token-columns.tsx';
import { TokenDrawer } from './components/token-drawer.tsx';
import { TokensToolbar, type TokenSearch } from './components/tokens-toolbar.tsx';

/** `/token`: the current user's relay keys. */
export default function TokensPage() {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatQuota = useQuotaFormatter();
  const copy = useCopyWithFallback({ copied: t('messages.copied'), failed: t('messages.copyFailed') });
  const [search, setSearch] = useState<TokenSearch>({ keyword: '', token: '' });
  const [selected, setSelected] = useState<Token[]>([]);
  const [drawer, setDrawer] = useState<{ open: boolean; tokenId?: number }>({ open: false });
  const searching = search.keyword !== '' || search.token !== '';

  const list = useAppendingPages({
    queryKey: [...tokensQueryKey, 'list'],
    fetchPage: (page, size, signal) => listTokens(page, size, signal),
    pageSizeStorageKey: 'token-page-size',
    enabled: !searching,
  });
  const found = useQuery({
    queryKey: [...tokensQueryKey, 'search', search],
    queryFn: ({ signal }) => searchTokens(search.keyword, search.token, signal),
    enabled: searching,
  });
  const rows = searching ? (found.data ?? []) : list.rows;
  const error = searching ? found.error : list.error;
  const loading = searching ? found.isLoading : list.loading;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: tokensQueryKey });
  const columns = useMemo(
    () =>
      tokenColumns({ t, formatQuota, onCopy: (text) => void copy(text), onEdit: (token) => setDrawer({ open: true, tokenId: token.id }), onChanged: refresh }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh only closes over the stable query client
    [t, formatQuota, copy],
  );

  function copySelected() {
    if (selected.length === 0) {
      void message.warning(t('messages.selectFirst'));
      return;
    }
    void copy(selected.map((token) => `${token.name}    ${fullKey(token)}`).join('\n'));
  }

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <Alert type="warning" showIcon title={t('warning')} />
        <TokensToolbar onSearch={setSearch} onAdd={() => setDrawer({ open: true })} onCopySelected={copySelected} onRefresh={refresh} />
        {error && <Alert type="error" showIcon title={t('loadFailed', { message: error.message })} />}
        <Table<Token>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={loading}
          scroll={{ x: 'max-content' }}
          rowSelection={{ selectedRowKeys: selected.map((token) => token.id), onChange: (_keys, tokens) => setSelected(tokens) }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={
            searching
              ? { pageSizeOptions, showSizeChanger: true }
              : { current: list.page, pageSize: list.pageSize, total: list.total, pageSizeOptions, showSizeChanger: true, onChange: list.changePage }
          }
        />
      </Flex>
      <TokenDrawer open={drawer.open} tokenId={drawer.tokenId} onClose={() => setDrawer({ open: false })} onSaved={refresh} />
    </Card>
  );
}
