import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Flex, Input, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { unpricedModelsKey } from '../../../lib/unpriced-models.ts';
import { optionsKey } from '../api/options.ts';
import { isNumeric, optionsFromRows, rebaseRows, rowsFromOptions, type PricingRow } from '../lib/model-pricing-rows.ts';
import { saveChangedOptions } from '../lib/save-changed-options.ts';

const noSecrets: ReadonlySet<string> = new Set();

/** The rows with a blank one for `model` first when it has none, to be filled in. */
function withRowFor(rows: PricingRow[], model: string | undefined): PricingRow[] {
  if (!model || rows.some((row) => row.name === model)) return rows;
  return [{ name: model, price: '', ratio: '', completionRatio: '' }, ...rows];
}

/** The three options the table edits, as one text that changes only when one of them does. */
function storedPricing(options: Record<string, string>): string {
  return JSON.stringify([options.ModelPrice, options.ModelRatio, options.CompletionRatio]);
}

/**
 * The visual model-pricing table: fixed price per call, or model ratio and completion ratio.
 * `focusModel` (from "Set a price") shows that model alone, with a row if it had none, its price focused.
 */
export function ModelPricingEditor({ options, focusModel }: { options: Record<string, string>; focusModel?: string | undefined }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const initial = useMemo(() => rowsFromOptions(options), [options]);
  const [rows, setRows] = useState(() => withRowFor(initial, focusModel));
  const stored = storedPricing(options);
  const [loaded, setLoaded] = useState(() => ({ from: stored, rows: initial }));
  const [filter, setFilter] = useState(focusModel ?? '');
  useEffect(() => {
    if (!focusModel) return;
    const input = document.querySelector<HTMLInputElement>(`input[aria-label="${CSS.escape(`${focusModel} ${t('pricing.price')}`)}"]`);
    input?.scrollIntoView({ block: 'center' });
    input?.focus();
  }, [focusModel, t]);
  const [newName, setNewName] = useState('');
  const [busy, setBusy] = useState(false);
  // Follow the stored prices when they change (after a save here or in the JSON tab, a reset, another
  // administrator), not whenever the options are read again: saving any other section reads them all
  // again. The rows changed here and not yet saved stay as they are (rebaseRows).
  if (loaded.from !== stored) {
    setLoaded({ from: stored, rows: initial });
    setRows(withRowFor(rebaseRows(rows, loaded.rows, initial), focusModel));
  }

  const update = (name: string, patch: Partial<PricingRow>) => setRows((current) => current.map((row) => (row.name === name ? { ...row, ...patch } : row)));

  const add = () => {
    const name = newName.trim();
    if (!name) return;
    if (rows.some((row) => row.name === name)) {
      void message.error(t('pricing.duplicate'));
      return;
    }
    setRows((current) => [{ name, price: '', ratio: '', completionRatio: '' }, ...current]);
    setNewName('');
  };

  const save = async () => {
    if (rows.some((row) => ![row.price, row.ratio, row.completionRatio].every(isNumeric))) {
      void message.error(t('pricing.notNumber'));
      return;
    }
    setBusy(true);
    try {
      const result = await saveChangedOptions(optionsFromRows(rows), optionsFromRows(initial), noSecrets);
      if (result.outcome === 'unchanged') void message.warning(t('messages.nothingChanged'));
      else if (result.outcome === 'saved') void message.success(t('messages.saved'));
      else
        void message.error(
          `${t(result.outcome === 'partial' ? 'messages.partialFailure' : 'messages.saveFailed')}${result.firstError ? `: ${result.firstError}` : ''}`,
        );
      await queryClient.invalidateQueries({ queryKey: optionsKey });
      await queryClient.invalidateQueries({ queryKey: unpricedModelsKey });
    } finally {
      setBusy(false);
    }
  };

  const numberInput = (row: PricingRow, field: 'price' | 'ratio' | 'completionRatio', disabled = false) => (
    <Input
      value={row[field]}
      disabled={disabled}
      status={isNumeric(row[field]) ? undefined : 'error'}
      onChange={(event) => update(row.name, { [field]: event.target.value })}
      style={{ width: 120 }}
      aria-label={`${row.name} ${t(`pricing.${field}`)}`}
    />
  );
  const columns: TableColumnsType<PricingRow> = [
    { title: t('pricing.name'), dataIndex: 'name' },
    { title: t('pricing.price'), key: 'price', render: (_value, row) => numberInput(row, 'price') },
    { title: t('pricing.ratio'), key: 'ratio', render: (_value, row) => numberInput(row, 'ratio', row.price.trim() !== '') },
    { title: t('pricing.completionRatio'), key: 'completionRatio', render: (_value, row) => numberInput(row, 'completionRatio', row.price.trim() !== '') },
    {
      title: '',
      key: 'delete',
      width: 56,
      render: (_value, row) => (
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('pricing.delete')}
          onClick={() => setRows((current) => current.filter((item) => item.name !== row.name))}
        />
      ),
    },
  ];
  const visible = filter ? rows.filter((row) => row.name.toLowerCase().includes(filter.trim().toLowerCase())) : rows;

  return (
    <Flex vertical gap={12} data-testid="pricing-editor">
      <Typography.Text type="secondary">{t('pricing.formula')}</Typography.Text>
      <Flex gap={8} wrap>
        <Input.Search
          allowClear
          placeholder={t('pricing.search')}
          aria-label={t('pricing.search')}
          defaultValue={focusModel}
          onSearch={setFilter}
          onChange={(event) => setFilter(event.target.value)}
          style={{ maxWidth: 280 }}
        />
        <Space.Compact>
          <Input
            value={newName}
            onChange={(event) => setNewName(event.target.value)}
            onPressEnter={add}
            placeholder={t('pricing.newName')}
            aria-label={t('pricing.newName')}
            data-testid="pricing-new-name"
          />
          <Button icon={<PlusOutlined />} onClick={add} data-testid="pricing-add">
            {t('pricing.add')}
          </Button>
        </Space.Compact>
      </Flex>
      <Table<PricingRow>
        rowKey="name"
        size="small"
        columns={columns}
        dataSource={visible}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        scroll={{ x: 'max-content' }}
      />
      <div>
        <Button type="primary" loading={busy} onClick={() => void save()} data-testid="save-pricing">
          {t('pricing.save')}
        </Button>
      </div>
    </Flex>
  );
}
