import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Flex, Form, Result, Skeleton, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { getSetupState, setupStateKey } from '../../lib/setup-state.ts';
import { readStoredUser, storeUser } from '../../lib/stored-user.ts';
import { completeSetup } from './api/complete-setup.ts';
import { createFirstChannel } from './api/create-first-channel.ts';
import { AccountStep, type AccountValues } from './components/account-step.tsx';
import { ChannelStep, type ChannelValues } from './components/channel-step.tsx';
import { ModeStep } from './components/mode-step.tsx';
import { findChannelType } from '@switchboard/contracts';

type SetupValues = AccountValues & ChannelValues & { selfUse: boolean };

const steps = ['account', 'mode', 'channel'] as const;
const fieldsOf: Record<(typeof steps)[number], Array<keyof SetupValues>> = {
  account: ['username', 'password', 'confirmPassword'],
  mode: ['selfUse'],
  channel: ['type', 'name', 'base_url', 'key', 'models'],
};

/**
 * /setup: root's first run, new-api's setup in three steps: a name and a new password, the use mode
 * (both saved by POST /api/setup when the second step is done), then the first channel (skippable).
 * The home page's checklist carries on from there to the first call.
 */
export default function SetupPage() {
  const { t } = useTranslation('setup');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: setupStateKey, queryFn: ({ signal }) => getSetupState(signal) });
  const [form] = Form.useForm<SetupValues>();
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const current = steps[step] ?? 'account';

  if (state.isLoading) return <Skeleton active style={{ padding: 48 }} />;
  // Done before this visit (not by the steps above, which move on to the channel step).
  if (state.data?.status && step === 0) {
    return (
      <Result
        status="success"
        title={t('alreadyDone')}
        extra={
          <Link to="/">
            <Button type="primary">{t('goHome')}</Button>
          </Link>
        }
      />
    );
  }

  const finish = async () => {
    await queryClient.invalidateQueries();
    void navigate('/');
  };

  const next = async () => {
    const values = await form.validateFields(fieldsOf[current]).catch(() => undefined);
    if (!values) return;
    setBusy(true);
    try {
      if (current === 'mode') {
        const all = form.getFieldsValue(true) as SetupValues;
        await completeSetup({ username: all.username, password: all.password, confirmPassword: all.confirmPassword, SelfUseModeEnabled: all.selfUse });
        const stored = readStoredUser();
        if (stored) storeUser({ ...stored, username: all.username });
        void message.success(t('saved'));
      }
      if (current === 'channel') {
        await createFirstChannel(values as ChannelValues);
        void message.success(t('channel.added'));
        await finish();
        return;
      }
      setStep(step + 1);
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex justify="center" style={{ padding: '24px 12px' }}>
      <Card title={t('title')} style={{ width: '100%', maxWidth: 640 }} data-testid="setup-page">
        <Steps current={step} size="small" style={{ marginBottom: 24 }} items={steps.map((id) => ({ title: t(`steps.${id}`) }))} responsive={false} />
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            username: readStoredUser()?.username ?? 'root',
            type: 1,
            name: t('channel.defaultName'),
            models: (findChannelType(1)?.defaultModels ?? []).join(','),
          }}
          onFinish={() => void next()}
        >
          {current === 'account' && <AccountStep />}
          {current === 'mode' && <ModeStep />}
          {current === 'channel' && <ChannelStep />}
          <Flex gap={8} justify="flex-end">
            {current === 'mode' && <Button onClick={() => setStep(0)}>{t('back')}</Button>}
            {current === 'channel' && (
              <Button onClick={() => void finish()} data-testid="setup-skip-channel">
                {t('channel.skip')}
              </Button>
            )}
            <Button type="primary" htmlType="submit" loading={busy} data-testid="setup-next">
              {current === 'channel' ? t('channel.add') : current === 'mode' ? t('save') : t('next')}
            </Button>
          </Flex>
        </Form>
      </Card>
    </Flex>
  );
}
