import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/**
 * Shown when a page throws while rendering or its chunk fails to load (typically after a deploy
 * replaced the hashed files): reloading fetches the new index.html and chunks.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  const { t } = useTranslation();
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <Result
      data-testid="route-error"
      status="error"
      title={t('routeError.title')}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('routeError.reload')}
        </Button>
      }
    />
  );
}
