import { Divider, Form, Input, Switch } from 'antd';
import { useTranslation } from 'react-i18next';

/** Whether a fallback field holds an object of model lists (the server checks the same and says why). */
function isFallbackMap(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const value: unknown = JSON.parse(text);
    return (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      Object.values(value).every((list) => Array.isArray(list) && list.length > 0 && list.every((entry) => typeof entry === 'string' && entry !== ''))
    );
  } catch {
    return false;
  }
}

/** The owner's say over the response cache and the model fallbacks for this token. */
export function TokenRoutingSection() {
  const { t } = useTranslation('tokens');
  return (
    <>
      <Divider titlePlacement="start">{t('routing.title')}</Divider>
      <Form.Item name="response_cache_off" label={t('routing.cacheOff')} valuePropName="checked" extra={t('routing.cacheOffHelp')}>
        <Switch data-testid="token-cache-off" aria-label={t('routing.cacheOff')} />
      </Form.Item>
      <Form.Item
        name="model_fallbacks"
        label={t('routing.fallbacks')}
        extra={t('routing.fallbacksHelp')}
        rules={[
          {
            validator: (_rule, value: string | undefined) =>
              isFallbackMap(value ?? '') ? Promise.resolve() : Promise.reject(new Error(t('routing.fallbacksInvalid'))),
          },
        ]}
      >
        <Input.TextArea rows={3} placeholder='{"gpt-5": ["gpt-5-mini"]}' data-testid="token-model-fallbacks" />
      </Form.Item>
    </>
  );
}
