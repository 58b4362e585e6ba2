import { Alert, App, Button, Card, Empty, Flex, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ClickableTag } from '../../../components/clickable-tag.tsx';
import { copyText } from '../../../lib/copy-text.ts';
import { useSelfModels } from '../api/list-self-models.ts';

/** The chip count before the list collapses behind 'more N models'. */
const collapsedCount = 10;

export function ModelsCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const models = useSelfModels();
  const [expanded, setExpanded] = useState(false);

  const copy = async (name: string) => {
    if (await copyText(name)) void message.success(t('actions.copied', { ns: 'common', text: name }));
    else void message.warning(t('actions.copyFailed', { ns: 'common' }));
  };

  const names = models.data ?? [];
  const shown = expanded ? names : names.slice(0, collapsedCount);
  return (
    <Card size="small" title={t('personal.models')} style={{ marginBottom: 16 }} data-testid="personal-models">
      {models.isLoading && <Skeleton active paragraph={{ rows: 1 }} />}
      {models.isError && <Alert type="error" showIcon title={t('personal.modelsFailed')} description={models.error.message} />}
      {models.isSuccess && names.length === 0 && <Empty description={t('personal.noModels')} />}
      <Flex wrap gap={6}>
        {shown.map((name) => (
          <ClickableTag key={name} onClick={() => void copy(name)} style={{ marginInlineEnd: 0 }}>
            {name}
          </ClickableTag>
        ))}
        {names.length > collapsedCount && (
          <Button size="small" type="link" onClick={() => setExpanded((value) => !value)} data-testid="models-expander">
            {expanded ? t('personal.collapseModels') : t('personal.moreModels', { count: names.length - collapsedCount })}
          </Button>
        )}
      </Flex>
    </Card>
  );
}
