import { Alert, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useUnpricedModels } from '../lib/unpriced-models.ts';
import { UnpricedModelTag } from './unpriced-model-tag.tsx';

/**
 * For administrators, on lists that leave unpriced models out (the price list hides them from
 * callers): which models the channels serve that nobody can call yet, each with "Set a price".
 */
export function UnpricedModelsNotice() {
  const { t } = useTranslation('common');
  const unpriced = useUnpricedModels();
  if (unpriced.size === 0) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="unpriced-models-notice"
      message={t('unpriced.hiddenOnPricing')}
      description={
        <Flex gap={12} wrap>
          {[...unpriced].map((model) => (
            <Flex key={model} gap={6} align="center">
              <Typography.Text code>{model}</Typography.Text>
              <UnpricedModelTag model={model} />
            </Flex>
          ))}
        </Flex>
      }
    />
  );
}
