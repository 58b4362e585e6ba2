import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Popconfirm, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { optionsKey } from '../api/options.ts';
import { resetModelRatio } from '../api/reset-model-ratio.ts';
import { OptionSection } from '../components/option-section.tsx';
import type { OptionField } from '../lib/option-field.ts';
import { ModelPricingEditor } from './model-pricing-editor.tsx';

const jsonFields: readonly OptionField[] = [
  { key: 'ModelPrice', kind: 'json', help: true },
  { key: 'ModelRatio', kind: 'json', help: true },
  { key: 'CompletionRatio', kind: 'json', help: true },
  // new-api's tool prices (US$ per 1,000 calls): Claude's web search is billed on top of the tokens.
  { key: 'tool_price_setting.prices', kind: 'json', help: true },
];

/** Model pricing as raw JSON (with the reset to defaults) or as the visual table. */
export function ModelRatioSection({ options }: { options: Record<string, string> }) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  // `?price=<model>` ("Set a price" beside an unpriced model) opens the visual editor on that model.
  const [params] = useSearchParams();
  const focusModel = params.get('price') ?? undefined;

  const reset = async () => {
    try {
      await resetModelRatio();
      void message.success(t('pricing.resetDone'));
      await queryClient.invalidateQueries({ queryKey: optionsKey });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <Card title={t('sections.modelRatio')} size="small" style={{ marginBottom: 16 }}>
      <Tabs
        defaultActiveKey={focusModel ? 'visual' : 'json'}
        items={[
          {
            key: 'json',
            label: t('pricing.jsonTab'),
            children: (
              <OptionSection id="modelRatioJson" fields={jsonFields} options={options}>
                <Popconfirm title={t('pricing.resetConfirm')} onConfirm={() => void reset()}>
                  <Button danger style={{ marginBottom: 16 }}>
                    {t('pricing.reset')}
                  </Button>
                </Popconfirm>
              </OptionSection>
            ),
          },
          { key: 'visual', label: t('pricing.visualTab'), children: <ModelPricingEditor options={options} focusModel={focusModel} /> },
        ]}
      />
    </Card>
  );
}
