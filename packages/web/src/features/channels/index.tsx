import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Empty, Flex, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { pageSizeOptions, useAppendingPages } from '../../components/use-appending-pages.ts';
import { useQuotaFormatter } from '../../lib/system-status.ts';
import { channelsQueryKey, type ChannelListFilters } from './api/channel-types.ts';
import { listChannels } from './api/list-channels.ts';
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

function readFilters(): ChannelListFilters {
  return { idSort: localStorage.getItem('id-sort') === 'true', tagMode: localStorage.getItem(filtersStorageKey) === 'tag' };
}

/** `/channel` (and `/channel/add`, `/channel/edit/{id}`, which open the editor over the list). */
export default function ChannelsPage() {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const formatQuota = useQuotaFormatter();
  const [filters, setFilters] = useState(() => ({ ...readFilters(), batch: false }));
  const [search, setSearch] = useState<ChannelSearch>({ keyword: '', model: '', group: '' });
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const [editingTag, setEditingTag] = useState<TagRow | null>(null);
  const searching = search.keyword !== '' || search.model !== '' || search.group !== '';
  const listFilters = { idSort: filters.idSort, tagMode: filters.tagMode };

  const drawerOpen = location.pathname.startsWith('/channel/add') || params.id !== undefined;
  const editingId = params.id !== undefined ? Number(params.id) : undefined;

  const list = useAppendingPages({
    queryKey: [...channelsQueryKey, 'list', listFilters],
    fetchPage: (page, size, signal) => listChannels(page, size, listFilters, signal),
    pageSizeStorageKey: 'page-size',
    enabled: !searching,
    rowCount: (channels) => (listFilters.tagMode ? buildRows(channels, true).length : channels.length),
  });
  const found = useQuery({
    queryKey: [...channelsQueryKey, 'search', search, listFilters],
    queryFn: ({ signal }) => searchChannels(search, listFilters, signal),
    enabled: searching,
  });
  const channels = useMemo(() => (searching ? (found.data ?? []) : list.rows), [searching, found.data, list.rows]);
  const rows = useMemo(() => buildRows(channels, filters.tagMode), [channels, filters.tagMode]);
  const error = searching ? found.error : list.error;

  const refresh = () => void queryClient.invalidateQueries({ queryKey: channelsQueryKey });
  const onError = (failure: Error) => void message.error(failure.message);

  const columns = useMemo(
    () =>
      channelColumns({
        t,
        formatQuota,
        onEdit: (channel) => void navigate(`/channel/edit/${channel.id}`),
        onEditTag: setEditingTag,
        onChanged: refresh,
        onChannelNumber: (channel, field, value) =>
          void updateChannelField(channel.id, field === 'priority' ? { priority: value } : { weight: value })
            .then(() => {
              void message.success(t('messages.done'));
              refresh();
            })
            .catch(onError),
        onTagNumber: (row, field, value) =>
          void updateTag({ tag: row.tag, [field]: value })
            .then(() => {
              void message.success(t('messages.tagUpdated'));
              refresh();
            })
            .catch(onError),
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refresh and onError only close over stable objects
    [t, formatQuota, navigate, message],
  );

  function changeFilters(next: ChannelListFilters & { batch: boolean }) {
    localStorage.setItem('id-sort', String(next.idSort));
    localStorage.setItem(filtersStorageKey, next.tagMode ? 'tag' : 'plain');
    if (!next.batch) setSelectedIds([]);
    setFilters(next);
  }

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <ChannelsToolbar filters={filters} onFilters={changeFilters} onSearch={setSearch} onAdd={() => void navigate('/channel/add')} onRefresh={refresh} />
        {filters.batch && (
          <BatchActions
            selectedIds={selectedIds}
            onDone={() => {
              setSelectedIds([]);
              refresh();
            }}
          />
        )}
        {error && <Alert type="error" showIcon title={t('loadFailed', { message: error.message })} />}
        <Table<ChannelRow>
          rowKey="rowKey"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={searching ? found.isLoading : list.loading}
          scroll={{ x: 'max-content' }}
          expandable={{ childrenColumnName: 'children' }}
          onRow={(row) => ({ style: row.kind === 'channel' && row.status !== 1 ? { opacity: 0.55 } : undefined })}
          rowSelection={
            filters.batch
              ? {
                  checkStrictly: false,
                  selectedRowKeys: selectedIds.map((id) => `channel-${id}`),
                  onChange: (_keys, selected) => setSelectedIds(selected.flatMap((row) => (row.kind === 'channel' ? [row.id] : []))),
                }
              : undefined
          }
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={
            searching
              ? { pageSizeOptions, showSizeChanger: true }
              : { current: list.page, pageSize: list.pageSize, total: list.total, pageSizeOptions, showSizeChanger: true, onChange: list.changePage }
          }
        />
      </Flex>
      <ChannelDrawer open={drawerOpen} channelId={editingId} onClose={() => void navigate('/channel')} onSaved={refresh} />
      <TagEditDialog row={editingTag} onClose={() => setEditingTag(null)} onSaved={refresh} />
    </Card>
  );
}
