import { CopyOutlined } from '@ant-design/icons';
import type { UserView } from '@switchboard/contracts';
import { DEFAULT_QUOTA_PER_UNIT } from '@switchboard/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Input, InputNumber, Modal, Row, Space, Statistic, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { copyText } from '../../../lib/copy-text.ts';
import { useQuotaFormatter, useStatusValue } from '../../../lib/system-status.ts';
import { useAffiliateCode } from '../api/get-affiliate-code.ts';
import { selfKey } from '../api/get-self.ts';
import { transferAffiliateQuota } from '../api/transfer-affiliate-quota.ts';

/** Invite link, pending and total earnings, invitees, and moving pending earnings to the balance. */
export function InvitationCard({ user }: { user: UserView }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const formatQuota = useQuotaFormatter();
  const quotaPerUnit = useStatusValue()?.quota_per_unit || DEFAULT_QUOTA_PER_UNIT;
  const code = useAffiliateCode();
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const link = code.data ? `${window.location.origin}/register?aff=${code.data}` : '';

  const copyLink = async () => {
    if (await copyText(link)) void message.success(t('personal.inviteCopied'));
    else void message.warning(t('actions.copyFailed', { ns: 'common' }));
  };

  const transfer = async () => {
    const quota = amount ?? 0;
    if (quota < quotaPerUnit) {
      void message.error(t('personal.transferMinimum', { amount: formatQuota(quotaPerUnit) }));
      return;
    }
    setBusy(true);
    try {
      const note = await transferAffiliateQuota(quota);
      void message.success(note || t('messages.saved'));
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: selfKey });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card size="small" title={t('personal.invitation')} style={{ marginBottom: 16 }} data-testid="personal-invitation">
      <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
        <Input
          readOnly
          value={link}
          placeholder={code.isLoading ? t('personal.loading') : ''}
          aria-label={t('personal.inviteLink')}
          data-testid="invite-link"
        />
        <Button icon={<CopyOutlined />} disabled={!link} onClick={() => void copyLink()}>
          {t('actions.copy', { ns: 'common' })}
        </Button>
      </Space.Compact>
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.pendingEarnings')} value={formatQuota(user.aff_quota)} />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.totalEarnings')} value={formatQuota(user.aff_history_quota)} />
        </Col>
        <Col xs={24} sm={8}>
          <Statistic title={t('personal.invitees')} value={user.aff_count} />
        </Col>
      </Row>
      <Button style={{ marginTop: 16 }} disabled={user.aff_quota <= 0} onClick={() => setOpen(true)} data-testid="open-transfer">
        {t('personal.transfer')}
      </Button>
      <Modal open={open} title={t('personal.transfer')} onCancel={() => setOpen(false)} onOk={() => void transfer()} confirmLoading={busy} destroyOnHidden>
        <Typography.Paragraph>{t('personal.transferAvailable', { amount: formatQuota(user.aff_quota) })}</Typography.Paragraph>
        <InputNumber<number>
          value={amount}
          onChange={setAmount}
          min={0}
          max={user.aff_quota}
          precision={0}
          style={{ width: '100%' }}
          placeholder={t('personal.transferPlaceholder', { min: quotaPerUnit })}
          aria-label={t('personal.transferPlaceholder', { min: quotaPerUnit })}
        />
      </Modal>
    </Card>
  );
}
