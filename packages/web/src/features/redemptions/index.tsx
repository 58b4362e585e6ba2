import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Flex, Input, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions, useAppendingPages } from '../../components/use-appending-pages.ts';
import { useCopyWithFallback } from '../../components/use-copy-with-fallback.tsx';
import { useQuotaFormatter } from '../../lib/system-status.ts';
import { listRedemptions } from './api/list-redemptions.ts';
import { redemptionsQueryKey, type Redemption } from './api/redemption-types.ts';
import { searchRedemptions } from './api/search-redemptions.ts';
import { CreatedCodesDialog } from './components/created-codes-dialog.tsx';
import { redemptionColumns } from './components/redemption-columns.tsx';
import { RedemptionDrawer } from './components/redemption-drawer.tsx';

/** `/redemption`: redemption codes (administrators). */
export default function RedemptionsPage() {
  const { t } = useTranslation('redemptions');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatQuota = useQuotaFormatter();
  const copy = useCopyWithFallback({ copied: t('messages.copied'), failed: t('messages.copyFailed') });
  const [keywordDraft, setKeywordDraft] = useState('');
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<Redemption[]>([]);
  const [drawer, setDrawer] = useState<{ open: boolean; codeId?: number }>({ open: false });
  const [created, setCreated] = useState<{ name: string; codes: string[] } | null>(null);

  const list = useAppendingPages({
    queryKey: [...redemptionsQueryKey, 'list'],
    fetchPage: listRedemptions,
    pageSizeStorageKey: 'redemption-page-size',
    enabled: keyword === '',
  });
  const found = useQuery({
    queryKey: [...redemptionsQueryKey, 'search', keyword],
    queryFn: ({ signal }) => searchRedemptions(keyword, signal),
    enabled: keyword !== '',
  });
  const searching = keyword !== '';
  const rows = searching ? (found.data ?? []) : list.rows;
  const error = searching ? found.error : list.error;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: redemptionsQueryKey });
  const columns = useMemo(
    () =>
      redemptionColumns({
        t,
        formatQuota,
        onCopy: (text) => void copy(text),
        onEdit: (code) => setDrawer({ open: true, codeId: code.id }),
        onChanged: refresh,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh only closes over the stable query client
    [t, formatQuota, copy],
  );

  function copySelected() {
    if (selected.length === 0) {
      void message.warning(t('messages.selectFirst'));
      return;
    }
    void copy(selected.map((code) => `${code.name}    ${code.key}`).join('\n'));
  }

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <Flex gap={8} wrap justify="space-between">
          <Flex gap={8}>
            <Input
              allowClear
              placeholder={t('search')}
              aria-label={t('search')}
              value={keywordDraft}
              onChange={(event) => setKeywordDraft(event.target.value)}
              onPressEnter={() => setKeyword(keywordDraft.trim())}
              style={{ width: 240 }}
            />
            <Button type="primary" onClick={() => setKeyword(keywordDraft.trim())}>
              {t('searchSubmit')}
            </Button>
          </Flex>
          <Flex gap={8} wrap>
            <Button type="primary" onClick={() => setDrawer({ open: true })}>
              {t('toolbar.add')}
            </Button>
            <Button onClick={copySelected}>{t('toolbar.copySelected')}</Button>
            <Button onClick={refresh}>{t('toolbar.refresh')}</Button>
          </Flex>
        </Flex>
        {error && <Alert type="error" showIcon title={t('loadFailed', { message: error.message })} />}
        <Table<Redemption>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={searching ? found.isLoading : list.loading}
          scroll={{ x: 'max-content' }}
          rowSelection={{ selectedRowKeys: selected.map((code) => code.id), onChange: (_keys, codes) => setSelected(codes) }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={
            searching
              ? { pageSizeOptions, showSizeChanger: true }
              : { current: list.page, pageSize: list.pageSize, total: list.total, pageSizeOptions, showSizeChanger: true, onChange: list.changePage }
          }
        />
      </Flex>
      <RedemptionDrawer
        open={drawer.open}
        codeId={drawer.codeId}
        onClose={() => setDrawer({ open: false })}
        onSaved={refresh}
        onCreated={(name, codes) => setCreated({ name, codes })}
      />
      <CreatedCodesDialog created={created} onClose={() => setCreated(null)} />
    </Card>
  );
}
