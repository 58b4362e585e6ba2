import type { TokenView } from '@switchboard/contracts';
import { Alert, App, Card, Empty, Flex, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useCopyWithFallback } from '../../components/use-copy-with-fallback.tsx';
import { useListState } from '../../components/use-list-state.ts';
import { useSearchableList } from '../../components/use-searchable-list.ts';
import { listTokens, tokensQueryKey } from './api/list-tokens.ts';
import { searchTokens } from './api/search-tokens.ts';
import { tokenColumns } from './components/token-columns.tsx';
import { TokenDrawer } from './components/token-drawer.tsx';
import { TokenKeyDialog, type ShownKeys } from './components/token-key-dialog.tsx';
import { TokensToolbar, type TokenSearch } from './components/tokens-toolbar.tsx';
import { useRevealKey } from './lib/use-reveal-key.ts';

const noSearch: TokenSearch = { keyword: '', token: '' };

/** `/token`: the current user's relay keys. */
export default function TokensPage() {
  const { t } = useTranslation('tokens');
  const { message } = App.useApp();
  const copy = useCopyWithFallback({ copied: t('messages.copied'), failed: t('messages.copyFailed') });
  const revealKey = useRevealKey();
  const [drawer, setDrawer] = useState<{ open: boolean; tokenId?: number }>({ open: false });
  const [shownKeys, setShownKeys] = useState<ShownKeys | null>(null);
  const state = useListState(noSearch, 'token-page-size');
  const list = useSearchableList({
    queryKey: tokensQueryKey,
    state,
    pages: 'append',
    fetchPage: (_search, page, size, signal) => listTokens(page, size, signal),
    fetchSearch: (search, signal) => searchTokens(search.keyword, search.token, signal),
    rowKey: (token: TokenView) => token.id,
  });
  const { refresh } = list;
  const columns = useMemo(
    () =>
      tokenColumns({
        t,
        onCopy: (text) => void copy(text),
        onShowKey: (token, key) => setShownKeys({ reason: 'view', keys: [{ name: token.name, key }] }),
        onEdit: (token) => setDrawer({ open: true, tokenId: token.id }),
        onChanged: refresh,
      }),
    [t, copy, refresh],
  );

  /** The new keys, shown once right after creation (a masked key may ask for the second factor first). */
  function showCreated(tokens: TokenView[]) {
    void (async () => {
      const keys: ShownKeys['keys'] = [];
      for (const token of tokens) keys.push({ name: token.name, key: await revealKey(token) });
      if (keys.length > 0) setShownKeys({ reason: 'created', keys });
    })().catch((error: unknown) => void message.error(error instanceof Error ? error.message : String(error)));
  }

  function copySelected() {
    const selected = list.selection.rows;
    if (selected.length === 0) {
      void message.warning(t('messages.selectFirst'));
      return;
    }
    // One at a time: the first masked key may ask for the second factor, which then covers the rest.
    void (async () => {
      const lines: string[] = [];
      for (const token of selected) lines.push(`${token.name}    ${await revealKey(token)}`);
      void copy(lines.join('\n'));
    })().catch((error: unknown) => void message.error(error instanceof Error ? error.message : String(error)));
  }

  return (
    <Card title={t('title')} extra={<ExportCsvButton path="/api/export/tokens" />}>
      <Flex vertical gap={16}>
        <Alert type="warning" showIcon title={t('warning')} />
        <TokensToolbar onSearch={list.setSearch} onAdd={() => setDrawer({ open: true })} onCopySelected={copySelected} onRefresh={refresh} />
        {list.error && <Alert type="error" showIcon title={t('loadFailed', { message: list.error.message })} />}
        <Table<TokenView>
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
      <TokenDrawer open={drawer.open} tokenId={drawer.tokenId} onClose={() => setDrawer({ open: false })} onSaved={refresh} onCreated={showCreated} />
      <TokenKeyDialog shown={shownKeys} onCopy={(text) => void copy(text)} onClose={() => setShownKeys(null)} />
    </Card>
  );
}
