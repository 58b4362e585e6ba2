import { Divider, Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { isAdmin, useStoredUser } from '../../../lib/use-stored-user.ts';

/**
 * The token's payload logging switch: its requests' bodies are stored for the log detail while the
 * global option is off. Administrators only (only they read payloads; the server refuses others).
 */
export function TokenPayloadSection() {
  const { t } = useTranslation('tokens');
  if (!isAdmin(useStoredUser())) return null;
  return (
    <>
      <Divider titlePlacement="start">{t('payload.title')}</Divider>
      <Form.Item name="log_payload" label={t('payload.switch')} valuePropName="checked" extra={t('payload.help')}>
        <Switch data-testid="token-log-payload" aria-label={t('payload.switch')} />
      </Form.Item>
    </>
  );
}
