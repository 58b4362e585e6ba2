import { DownloadOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadExport, type ExportQuery } from '../lib/download-export.ts';

interface ExportCsvButtonProps {
  /** The export endpoint of the table (`/api/export/logs`, …). */
  path: string;
  /** The list's current filters, so the file holds what the table shows, every page of it. */
  query?: ExportQuery;
}

/** "Export CSV" above a table: every row matching the table's filters, headers in the console's language. */
export function ExportCsvButton({ path, query }: ExportCsvButtonProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const start = () => {
    setExporting(true);
    downloadExport(path, query)
      .catch((error: unknown) => void message.error(t('export.failed', { message: error instanceof Error ? error.message : String(error) })))
      .finally(() => setExporting(false));
  };
  return (
    <Button icon={<DownloadOutlined />} loading={exporting} onClick={start}>
      {t('export.csv')}
    </Button>
  );
}
