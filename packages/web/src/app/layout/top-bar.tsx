import { MenuOutlined } from '@ant-design/icons';
import { Button, Flex, Menu, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { logoOf, systemNameOf, useStatusValue } from '../../lib/system-status.ts';
import { topBarLinks } from '../navigation.tsx';
import { AccountMenu } from './account-menu.tsx';
import { LanguageMenu, ThemeSwitch } from './preference-switches.tsx';

/** The classic console's New Year's Day easter egg. */
function isNewYearsDay(now = new Date()): boolean {
  return now.getMonth() === 0 && now.getDate() === 1;
}

interface TopBarProps {
  isMobile: boolean;
  /** Present when a side menu exists but is hidden (mobile): opens it in a drawer. */
  onOpenMenu?: () => void;
}

export function TopBar({ isMobile, onOpenMenu }: TopBarProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const status = useStatusValue();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const name = systemNameOf(status);
  const active = topBarLinks.find((link) => (link.path === '/' ? pathname === '/' : pathname.startsWith(link.path)))?.path;

  return (
    <Flex
      align="center"
      gap={8}
      style={{ height: '100%', paddingInline: isMobile ? 8 : 16, background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
    >
      {onOpenMenu && <Button type="text" icon={<MenuOutlined />} aria-label={t('nav.openMenu')} onClick={onOpenMenu} data-testid="open-side-menu" />}
      <Link to="/" style={{ display: 'flex', alignItems: 'center', gap: 8, flexShrink: 0 }}>
        <img src={logoOf(status)} alt="" width={28} height={28} style={{ borderRadius: 6, objectFit: 'contain' }} />
        {!isMobile && (
          <Typography.Text strong style={{ fontSize: 16 }} data-testid="system-name">
            {name}
          </Typography.Text>
        )}
      </Link>
      {isNewYearsDay() && !isMobile && <Tag color="red">{t('nav.happyNewYear')}</Tag>}
      <Menu
        mode="horizontal"
        selectedKeys={active ? [active] : []}
        items={topBarLinks.map((link) => ({ key: link.path, icon: link.icon, label: t(link.labelKey) }))}
        onClick={({ key }) => void navigate(key)}
        style={{ flex: 1, minWidth: 0, borderBottom: 'none', background: 'transparent', lineHeight: '62px' }}
        data-testid="top-nav"
      />
      <Flex align="center" gap={2} style={{ flexShrink: 0 }}>
        <ThemeSwitch />
        <LanguageMenu />
        <AccountMenu compact={isMobile} />
      </Flex>
    </Flex>
  );
}
