import type { ChannelView } from '@switchboard/contracts';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Flex, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { updateBalance } from '../api/update-balance.ts';

/** Used quota, and the upstream balance (refreshed on click). */
export function BalanceCell({ channel, formatQuota, onChanged }: { channel: ChannelView; formatQuota: (quota: number) => string; onChanged: () => void }) {
  const { t } = useTranslation('channels');
  const { message } = App.useApp();
  const refresh = useMutation({
    mutationFn: () => updateBalance(channel.id),
    onSuccess: (balance) => {
      void message.success(t('messages.balanceUpdated', { name: channel.name, balance: balance.toFixed(2) }));
      onChanged();
    },
    onError: (error: Error) => void message.error(error.message),
  });
  return (
    <Flex vertical gap={2}>
      <QuotaHover quota={channel.used_quota}>
        <Typography.Text>{t('quota.used', { value: formatQuota(channel.used_quota) })}</Typography.Text>
      </QuotaHover>
      <Tooltip title={t('quota.refreshBalance')}>
        <Button size="small" type="link" style={{ padding: 0, height: 'auto' }} loading={refresh.isPending} onClick={() => refresh.mutate()}>
          {t('quota.balance', { value: `$${(channel.balance ?? 0).toFixed(2)}` })}
        </Button>
      </Tooltip>
    </Flex>
  );
}
