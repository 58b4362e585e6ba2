import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { OptionSection } from '../components/option-section.tsx';
import { isValidJson } from '../lib/option-field.ts';
import {
  compatibilityFields,
  dashboardPanelFields,
  emailDomainFields,
  fetchPolicyFields,
  forceSslAtPort465,
  gitHubFields,
  legalFields,
  linuxDoFields,
  loginSwitchFields,
  paymentFields,
  securityFields,
  serverAddressFields,
  smtpFields,
  telegramFields,
  turnstileFields,
  weChatFields,
  workerFields,
} from './system-sections.ts';

export function SystemTab({ options }: { options: Record<string, string> }) {
  const { t } = useTranslation('settings');
  const { modal } = App.useApp();

  const validatePayment = (draft: Record<string, string>) => {
    if (!(options.ServerAddress ?? '').trim()) return t('messages.serverAddressFirst');
    if (!isValidJson(draft.TopupGroupRatio ?? '') || !(draft.TopupGroupRatio ?? '').trim()) return t('messages.topupGroupRatioInvalid');
    return undefined;
  };

  // Turning password login off can lock everyone out who has no other login method: ask first.
  const confirmLoginSwitches = (draft: Record<string, string>, loaded: Record<string, string>): Promise<boolean> => {
    if (draft.PasswordLoginEnabled !== 'false' || loaded.PasswordLoginEnabled === 'false') return Promise.resolve(true);
    return new Promise((resolve) => {
      modal.confirm({
        title: t('messages.disablePasswordLoginTitle'),
        content: t('messages.disablePasswordLoginContent'),
        okButtonProps: { danger: true },
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  };

  return (
    <>
      <OptionSection id="serverAddress" fields={serverAddressFields} options={options} />
      <OptionSection id="worker" fields={workerFields} options={options} />
      <OptionSection id="payment" fields={paymentFields} options={options} validate={validatePayment} />
      <OptionSection id="loginSwitches" fields={loginSwitchFields} options={options} confirm={confirmLoginSwitches} />
      <OptionSection id="security" fields={securityFields} options={options} />
      <OptionSection id="fetchPolicy" fields={fetchPolicyFields} options={options} />
      <OptionSection id="legal" fields={legalFields} options={options} />
      <OptionSection id="dashboardPanels" fields={dashboardPanelFields} options={options} />
      <OptionSection id="emailDomain" fields={emailDomainFields} options={options} />
      <OptionSection id="smtp" fields={smtpFields} options={options} normalize={forceSslAtPort465} />
      <OptionSection id="github" fields={gitHubFields} options={options} />
      <OptionSection id="wechat" fields={weChatFields} options={options} />
      <OptionSection id="telegram" fields={telegramFields} options={options} />
      <OptionSection id="turnstile" fields={turnstileFields} options={options} />
      <OptionSection id="linuxdo" fields={linuxDoFields} options={options} />
      <OptionSection id="compatibility" fields={compatibilityFields} options={options} />
    </>
  );
}
