import { Role } from '@switchboard/contracts';
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation } from 'react-router';
import { useStoredUser } from '../../lib/use-stored-user.ts';

/**
 * The protected-route guard: a visitor without a stored user goes to /login (remembering where they
 * were headed); a user below `minRole` sees a 403 page instead of a screen whose calls would all fail.
 */
export function RequireLogin({ children, minRole = Role.common }: { children: ReactNode; minRole?: number }) {
  const user = useStoredUser();
  const location = useLocation();
  const { t } = useTranslation();
  if (!user) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (user.role < minRole) {
    return (
      <Result
        status="403"
        title="403"
        subTitle={t('forbidden.description')}
        extra={
          <Link to="/">
            <Button type="primary">{t('notFound.backHome')}</Button>
          </Link>
        }
      />
    );
  }
  return children;
}
