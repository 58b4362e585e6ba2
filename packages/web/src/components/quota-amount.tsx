import { Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatQuotaAmount, formatQuotaExact, formatQuotaUnits } from '../lib/quota-display.ts';
import { useQuotaDisplay } from '../lib/system-status.ts';

/** Hovering `children` (which show `quota`) tells the exact amount and the raw quota units, after `label` if given. */
export function QuotaHover({ quota, label, children }: { quota: number; label?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const display = useQuotaDisplay();
  const exact = t('quota.exact', { amount: formatQuotaExact(quota, display), quota: formatQuotaUnits(quota) });
  return (
    <Tooltip title={label ? `${label}: ${exact}` : exact}>
      <span data-quota={quota} style={{ whiteSpace: 'nowrap' }}>
        {children}
      </span>
    </Tooltip>
  );
}

/** An amount of quota in the site's display, with the exact figure on hover. */
export function QuotaAmount({ quota }: { quota: number }) {
  const display = useQuotaDisplay();
  return <QuotaHover quota={quota}>{formatQuotaAmount(quota, display)}</QuotaHover>;
}
