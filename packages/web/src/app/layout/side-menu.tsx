import { Menu, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useStatusValue } from '../../lib/system-status.ts';
import { chatLinkTemplates } from '../../lib/chat-links.ts';
import type { NavigationItem } from '../navigation.tsx';

interface SideMenuProps {
  items: NavigationItem[];
  /** Called after a click, so the mobile drawer can close. */
  onNavigate?: () => void;
}

function selectedKey(pathname: string, items: NavigationItem[]): string | undefined {
  if (pathname.startsWith('/chat/')) return pathname;
  return items.find((item) => pathname === item.path || pathname.startsWith(`${item.path}/`))?.path;
}

export function SideMenu({ items, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const status = useStatusValue();
  const chatLinks = chatLinkTemplates(status);

  const menuItems: MenuProps['items'] = items.map((item) =>
    item.chatLinks
      ? { key: item.path, icon: item.icon, label: t(item.labelKey), children: chatLinks.map((link, index) => ({ key: `/chat/${index}`, label: link.name })) }
      : { key: item.path, icon: item.icon, label: t(item.labelKey) },
  );
  const selected = selectedKey(pathname, items);

  return (
    <Menu
      mode="inline"
      items={menuItems}
      selectedKeys={selected ? [selected] : []}
      defaultOpenKeys={pathname.startsWith('/chat/') ? ['/chat'] : []}
      onClick={({ key }) => {
        void navigate(key);
        onNavigate?.();
      }}
      style={{ borderInlineEnd: 'none' }}
      data-testid="side-menu"
    />
  );
}
