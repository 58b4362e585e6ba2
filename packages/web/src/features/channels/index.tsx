import { ChannelStatus, type ChannelBreakerView, type ChannelView } from '@switchboard/contracts';
import { Alert, App, Card, Empty, Flex, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useListState } from '../../components/use-list-state.ts';
import { useSearchableList } from '../../components/use-searchable-list.ts';
import { useQuotaFormatter } from '../../lib/system-status.ts';
import { useChannelBreakers } from './api/list-breakers.ts';
import { channelsQueryKey, listChannels, type ChannelListFilters } from './api/list-channels.ts';
import { searchChannels, type ChannelSearch } from './api/search-channels.ts';
import { updateChannelField } from './api/update-channel.ts';
import { updateTag } from './api/update-tag.ts';
import { BatchActions } from './components/batch-actions.tsx';
import { channelColumns } from './components/channel-columns.tsx';
import { ChannelsToolbar } from './components/channels-toolbar.tsx';
import { ChannelDrawer } from './components/drawer/channel-drawer.tsx';
import { TagEditDialog } from './components/tag-edit-dialog.tsx';
import { buildRows, type ChannelRow, type TagRow } from './lib/tag-rows.ts';

const filtersStorageKey = 'channel-list-filters';
const noSearch: ChannelSearch = { keyword: '', model: '', group: '' };
const noBreakers: ReadonlyMap<number, ChannelBreakerView> = new Map();

function readFilters(): ChannelListFilters {
  return { idSort: localStorage.getItem('id-sort') === 'true', tagMode: localStorage.getItem(filtersStorageKey) === 'tag' };
}

/** `/channel` (and `/channel/add`, `/channel/edit/{id}`, which open the editor over the list). */
export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const formatQuota = useQuotaFormatter();
  const breakers = useChannelBreakers().data ?? noBreakers;
  const [filters, setFilters] = useState(() => ({ ...readFilters(), batch: false }));
  const [editingTag, setEditingTag] = useState<TagRow | null>(null);
  const listFilters: ChannelListFilters = { idSort: filters.idSort, tagMode: filters.tagMode };

  const drawerOpen = location.pathname.startsWith('/channel/add') || params.id !== undefined;
  const editingId = params.id !== undefined ? Number(params.id) : undefined;

  const state = useListState(noSearch, 'page-size');
  const list = useSearchableList({
    queryKey: channelsQueryKey,
    filters: listFilters,
    state,
    pages: 'append',
    fetchPage: (_search, page, size, signal) => listChannels(page, size, listFilters, signal),
    fetchSearch: (search, signal) => searchChannels(search, listFilters, signal),
    // In tag mode a page counts tag rows, as the table shows them.
    toRows: (channels: ChannelView[]) => buildRows(channels, listFilters.tagMode),
    rowKey: (row: ChannelRow) => row.rowKey,
  });
  const { refresh } = list;
  const selectedIds = list.selection.rows.flatMap((row) => (row.kind === 'channel' ? [row.id] : []));

  const columns = useMemo(() => {
    const onError = (failure: Error) => void message.error(failure.message);
    return channelColumns({
      t,
      formatQuota,
      breakers,
      onEdit: (channel) => void navigate(`/channel/edit/${channel.id}`),
      onEditTag: setEditingTag,
      onChanged: refresh,
      onChannelNumber: (channel, field, value) =>
        void updateChannelField(channel.id, field === 'priority' ? { priority: value } : { weight: value })
          .then(() => {
            void message.success(t('messages.done'));
            void refresh();
          })
          .catch(onError),
      onTagNumber: (row, field, value) =>
        void updateTag({ tag: row.tag, [field]: value })
          .then(() => {
            void message.success(t('messages.tagUpdated'));
            void refresh();
          })
          .catch(onError),
    });
  }, [t, formatQuota, breakers, navigate, message, refresh]);

  // The editor closes in the same update as the address. The router renders a navigation in a
  // transition, which keeps the old screen up until the new one has rendered: after a save the editor
  // stayed open, filled and with its submit button live, while the address already said /channel
  // (half a second on the 2-core test machine, seconds under load); a type picked and fields filled
  // meanwhile went into that form and vanished with it.
  function closeEditor() {
    void navigate('/channel', { flushSync: true });
  }

  function changeFilters(next: ChannelListFilters & { batch: boolean }) {
    localStorage.setItem('id-sort', String(next.idSort));
    localStorage.setItem(filtersStorageKey, next.tagMode ? 'tag' : 'plain');
    if (!next.batch) list.selection.clear();
    setFilters(next);
  }

  return (
    <Card title={t('title')} extra={<ExportCsvButton path="/api/export/channels" />}>
      <Flex vertical gap={16}>
        <ChannelsToolbar
          filters={filters}
          onFilters={changeFilters}
          onSearch={list.setSearch}
          onAdd={() => void navigate('/channel/add')}
          onRefresh={refresh}
        />
        {filters.batch && (
          <BatchActions
            selectedIds={selectedIds}
            onDone={() => {
              list.selection.clear();
              void refresh();
            }}
          />
        )}
        {list.error && <Alert type="error" showIcon title={t('loadFailed', { message: list.error.message })} />}
        <Table<ChannelRow>
          rowKey="rowKey"
          size="middle"
          columns={columns}
          dataSource={list.rows}
          loading={list.loading}
          scroll={{ x: 'max-content' }}
          expandable={{ childrenColumnName: 'children' }}
          onRow={(row) => ({ style: row.kind === 'channel' && row.status !== ChannelStatus.enabled ? { opacity: 0.55 } : undefined })}
          rowSelection={filters.batch ? { ...list.selection.rowSelection, checkStrictly: false } : undefined}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={list.pagination}
        />
      </Flex>
      <ChannelDrawer open={drawerOpen} channelId={editingId} onClose={closeEditor} onSaved={refresh} />
      <TagEditDialog row={editingTag} onClose={() => setEditingTag(null)} onSaved={refresh} />
    </Card>
  );
}
