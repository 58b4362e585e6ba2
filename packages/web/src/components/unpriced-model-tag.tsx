import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { setPricePath } from '../lib/unpriced-models.ts';
import { isRoot, useStoredUser } from '../lib/use-stored-user.ts';

/**
 * Marks a model callers would be refused (400, no price or ratio) wherever models are chosen or
 * tested; root, who keeps the prices, gets "Set a price" beside it, opening the editor on the model.
 * Outside the router (a toast), `onSetPrice` stands in for the link: the caller navigates.
 */
export function UnpricedModelTag({ model, onSetPrice }: { model: string; onSetPrice?: () => void }) {
  const { t } = useTranslation('common');
  const root = isRoot(useStoredUser());
  return (
    <span data-testid="unpriced-model" data-model={model} style={{ whiteSpace: 'nowrap' }}>
      <Tooltip title={t('unpriced.tooltip', { model })}>
        <Tag color="warning" style={{ marginInlineEnd: 4 }}>
          {t('unpriced.tag')}
        </Tag>
      </Tooltip>
      {root &&
        (onSetPrice ? (
          <Typography.Link onClick={onSetPrice} data-testid="set-price">
            {t('unpriced.setPrice')}
          </Typography.Link>
        ) : (
          <Link to={setPricePath(model)} onClick={(event) => event.stopPropagation()} data-testid="set-price">
            {t('unpriced.setPrice')}
          </Link>
        ))}
    </span>
  );
}
