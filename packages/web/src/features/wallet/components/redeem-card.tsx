import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeWebLink } from '../../../lib/safe-url.ts';
import { useQuotaFormatter, useStatusValue } from '../../../lib/system-status.ts';
import { selfQueryKey } from '../api/get-self.ts';
import { redeemCode } from '../api/redeem-code.ts';

/** The redeem box, and the link where codes are sold when the administrator set one. */
export function RedeemCard() {
  const { t } = useTranslation('wallet');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatQuota = useQuotaFormatter();
  const status = useStatusValue();
  const topUpLink = safeWebLink(status?.top_up_link);
  const [code, setCode] = useState('');
  const redeem = useMutation({
    mutationFn: redeemCode,
    onSuccess: (quota) => {
      void message.success(t('redeem.success', { amount: formatQuota(quota) }));
      setCode('');
      void queryClient.invalidateQueries({ queryKey: selfQueryKey });
    },
    onError: (error: Error) => void message.error(error.message || t('redeem.failed')),
  });

  function submit() {
    const key = code.trim();
    if (!key) {
      void message.warning(t('redeem.empty'));
      return;
    }
    redeem.mutate(key);
  }

  function openTopUpLink() {
    if (!topUpLink) {
      void message.error(t('redeem.noLink'));
      return;
    }
    window.open(topUpLink, '_blank', 'noopener');
  }

  return (
    <Card title={t('redeem.title')}>
      <Flex vertical gap={12}>
        <Input
          allowClear
          placeholder={t('redeem.placeholder')}
          aria-label={t('redeem.placeholder')}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          onPressEnter={submit}
        />
        <Flex gap={8} wrap>
          <Button type="primary" loading={redeem.isPending} onClick={submit}>
            {t('redeem.submit')}
          </Button>
          {topUpLink ? <Button onClick={openTopUpLink}>{t('redeem.getCode')}</Button> : null}
        </Flex>
      </Flex>
    </Card>
  );
}
