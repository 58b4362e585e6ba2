import type { RedemptionView } from '@switchboard/contracts';
import { Alert, App, Button, Card, Empty, Flex, Input, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useCopyWithFallback } from '../../components/use-copy-with-fallback.tsx';
import { useListState } from '../../components/use-list-state.ts';
import { useSearchableList } from '../../components/use-searchable-list.ts';
import { useQuotaFormatter } from '../../lib/system-status.ts';
import { listRedemptions, redemptionsQueryKey } from './api/list-redemptions.ts';
import { searchRedemptions } from './api/search-redemptions.ts';
import { CreatedCodesDialog } from './components/created-codes-dialog.tsx';
import { redemptionColumns } from './components/redemption-columns.tsx';
import { RedemptionDrawer } from './components/redemption-drawer.tsx';

const noSearch = { keyword: '' };

/** `/redemption`: redemption codes (administrators). */
export default function RedemptionsPage() {
  const { t } = useTranslation('redemptions');
  const { message } = App.useApp();
  const formatQuota = useQuotaFormatter();
  const copy = useCopyWithFallback({ copied: t('messages.copied'), failed: t('messages.copyFailed') });
  const [keywordDraft, setKeywordDraft] = useState('');
  const [drawer, setDrawer] = useState<{ open: boolean; codeId?: number }>({ open: false });
  const [created, setCreated] = useState<{ name: string; codes: string[] } | null>(null);
  const state = useListState(noSearch, 'redemption-page-size');
  const list = useSearchableList({
    queryKey: redemptionsQueryKey,
    state,
    pages: 'append',
    fetchPage: (_search, page, size, signal) => listRedemptions(page, size, signal),
    fetchSearch: (search, signal) => searchRedemptions(search.keyword, signal),
    rowKey: (code: RedemptionView) => code.id,
  });
  const { refresh } = list;
  const columns = useMemo(
    () =>
      redemptionColumns({
        t,
        formatQuota,
        onCopy: (text) => void copy(text),
        onEdit: (code) => setDrawer({ open: true, codeId: code.id }),
        onChanged: refresh,
      }),
    [t, formatQuota, copy, refresh],
  );
  const search = () => list.setSearch({ keyword: keywordDraft.trim() });

  function copySelected() {
    const selected = list.selection.rows;
    if (selected.length === 0) {
      void message.warning(t('messages.selectFirst'));
      return;
    }
    void copy(selected.map((code) => `${code.name}    ${code.key}`).join('\n'));
  }

  return (
    <Card title={t('title')} extra={<ExportCsvButton path="/api/export/redemptions" />}>
      <Flex vertical gap={16}>
        <Flex gap={8} wrap justify="space-between">
          <Flex gap={8}>
            <Input
              allowClear
              placeholder={t('search')}
              aria-label={t('search')}
              value={keywordDraft}
              onChange={(event) => setKeywordDraft(event.target.value)}
              onPressEnter={search}
              style={{ width: 240 }}
            />
            <Button type="primary" onClick={search}>
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
        {list.error && <Alert type="error" showIcon title={t('loadFailed', { message: list.error.message })} />}
        <Table<RedemptionView>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading}
          scroll={{ x: 'max-content' }}
          rowSelection={list.selection.rowSelection}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={list.pagination}
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
