import { findChannelType } from '@switchboard/contracts';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { azureDefaultApiVersion, geminiDefaultVersion, iflytekDefaultVersion, isJsonObjectOrEmpty, vertexRegionExample } from '../../lib/channel-form.ts';

/**
 * new-api's extra inputs by channel type, chosen by the type's `extraField` in the channel-type
 * catalogue: Azure endpoint and API version, custom URL and settings, private address, Suno address,
 * model version, Vertex region, knowledge base, account ID, organization, else an optional proxy
 * address. Every type whose provider reads `other` has its input here (Gemini's API version and
 * Coze's bot ID too); Dify has no public default address, so its API address is asked for.
 */
export function TypeExtraFields({ type }: { type: number }) {
  const { t } = useTranslation('channels');
  const jsonRule = {
    validator: async (_rule: unknown, value: string) => {
      if (!isJsonObjectOrEmpty(value)) throw new Error(t('form.jsonInvalid'));
    },
  };
  switch (findChannelType(type)?.extraField) {
    case 'azure':
      return (
        <>
          <Alert type="warning" showIcon title={t('form.azureWarning')} style={{ marginBottom: 16 }} />
          <Form.Item name="base_url" label={t('form.azureEndpoint')} rules={[{ required: true, whitespace: true, message: t('form.azureEndpointRequired') }]}>
            <Input placeholder="https://docs-test-001.openai.azure.com" />
          </Form.Item>
          <Form.Item name="other" label={t('form.azureVersion')}>
            <Input placeholder={azureDefaultApiVersion} />
          </Form.Item>
        </>
      );
    case 'custom-url':
      return (
        <>
          <Form.Item
            name="base_url"
            label={t('form.customUrl')}
            extra={t('form.customUrlHelp')}
            rules={[{ required: true, whitespace: true, message: t('form.customUrlRequired') }]}
          >
            <Input placeholder="https://api.example.com/v1/{model}/chat/completions" />
          </Form.Item>
          <Form.Item name="setting" label={t('form.extraSettings')} extra={t('form.extraSettingsHelp')} rules={[jsonRule]}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder={'{\n  "force_format": true\n}'} />
          </Form.Item>
        </>
      );
    case 'private-address':
      return (
        <Form.Item name="base_url" label={t('form.privateAddress')}>
          <Input placeholder="https://fastgpt.run/api/openapi" />
        </Form.Item>
      );
    case 'suno-address':
      return (
        <Form.Item name="base_url" label={t('form.sunoAddress')} extra={t('form.sunoAddressHelp')}>
          <Input placeholder="https://suno.example.com" />
        </Form.Item>
      );
    case 'model-version':
      return (
        <Form.Item name="other" label={t('form.modelVersion')} extra={t('form.modelVersionHelp')}>
          <Input placeholder={iflytekDefaultVersion} />
        </Form.Item>
      );
    case 'vertex':
      return (
        <Form.Item name="other" label={t('form.vertexRegion')} extra={t('form.vertexRegionHelp')}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} placeholder={vertexRegionExample} />
        </Form.Item>
      );
    case 'knowledge-base':
      return (
        <Form.Item name="other" label={t('form.knowledgeBase')}>
          <Input placeholder="123456" />
        </Form.Item>
      );
    case 'account-id':
      return (
        <Form.Item
          name="other"
          label={t('form.accountId')}
          extra={t('form.accountIdHelp')}
          rules={[{ required: true, whitespace: true, message: t('form.accountIdRequired') }]}
        >
          <Input placeholder="d6b5da8hk1awo8nap34ube6gh" />
        </Form.Item>
      );
    case 'api-version':
      return (
        <>
          <Form.Item name="other" label={t('form.geminiVersion')} extra={t('form.geminiVersionHelp')}>
            <Input placeholder={geminiDefaultVersion} />
          </Form.Item>
          <Form.Item name="base_url" label={t('form.proxy')} extra={t('form.proxyHelp')}>
            <Input placeholder="https://generativelanguage.googleapis.com" />
          </Form.Item>
        </>
      );
    case 'api-address':
      return (
        <Form.Item
          name="base_url"
          label={t('form.difyAddress')}
          extra={t('form.difyAddressHelp')}
          rules={[{ required: true, whitespace: true, message: t('form.difyAddressRequired') }]}
        >
          <Input placeholder="https://api.dify.ai" />
        </Form.Item>
      );
    case 'bot-id':
      return (
        <>
          <Form.Item name="other" label={t('form.botId')} extra={t('form.botIdHelp')}>
            <Input placeholder="7342866812345678901" />
          </Form.Item>
          <Form.Item name="base_url" label={t('form.cozeAddress')} extra={t('form.cozeAddressHelp')}>
            <Input placeholder="https://api.coze.cn" />
          </Form.Item>
        </>
      );
    case 'organization':
      return (
        <>
          <Form.Item name="openai_organization" label={t('form.organization')}>
            <Input placeholder={t('form.optional')} />
          </Form.Item>
          <Form.Item name="base_url" label={t('form.proxy')} extra={t('form.proxyHelp')}>
            <Input placeholder="https://api.openai.com" />
          </Form.Item>
        </>
      );
    default:
      return (
        <Form.Item name="base_url" label={t('form.proxy')} extra={t('form.proxyHelp')}>
          <Input placeholder={t('form.optional')} />
        </Form.Item>
      );
  }
}
