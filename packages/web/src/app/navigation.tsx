import {
  ApiOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  CommentOutlined,
  CreditCardOutlined,
  DollarOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  GiftOutlined,
  HomeOutlined,
  InfoCircleOutlined,
  KeyOutlined,
  PictureOutlined,
  ProfileOutlined,
  SettingOutlined,
  TeamOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { SystemStatus } from '@switchboard/contracts';
import { Role } from '@switchboard/contracts';
import type { ReactNode } from 'react';
import { chatLinkTemplates } from '../lib/chat-links.ts';
import type { StoredUser } from '../lib/stored-user.ts';

/**
 * The side menu as data (new-api's side menu): order, path, icon, label key in the
 * `common` namespace (`menu.*`), the lowest role that sees it and the status switch that must be on.
 * Adding a console page = one entry here + one route in router.tsx.
 */
export interface NavigationItem {
  path: string;
  icon: ReactNode;
  labelKey: string;
  minRole: number;
  /** Hidden unless this returns true for the current status (e.g. drawing enabled). */
  enabledWhen?: (status: SystemStatus) => boolean;
  /** Chat: one sub-item per configured chat link. */
  chatLinks?: boolean;
}

export const navigationItems: readonly NavigationItem[] = [
  { path: '/playground', icon: <ExperimentOutlined />, labelKey: 'menu.playground', minRole: Role.common },
  { path: '/channel', icon: <ApiOutlined />, labelKey: 'menu.channel', minRole: Role.admin },
  { path: '/chat', icon: <CommentOutlined />, labelKey: 'menu.chat', minRole: Role.common, chatLinks: true },
  { path: '/token', icon: <KeyOutlined />, labelKey: 'menu.token', minRole: Role.common },
  { path: '/detail', icon: <BarChartOutlined />, labelKey: 'menu.dashboard', minRole: Role.common, enabledWhen: (status) => status.enable_data_export },
  { path: '/models', icon: <DatabaseOutlined />, labelKey: 'menu.models', minRole: Role.admin },
  { path: '/redemption', icon: <GiftOutlined />, labelKey: 'menu.redemption', minRole: Role.admin },
  { path: '/topup', icon: <CreditCardOutlined />, labelKey: 'menu.wallet', minRole: Role.common },
  { path: '/user', icon: <TeamOutlined />, labelKey: 'menu.user', minRole: Role.admin },
  { path: '/log', icon: <ProfileOutlined />, labelKey: 'menu.log', minRole: Role.common },
  { path: '/midjourney', icon: <PictureOutlined />, labelKey: 'menu.drawing', minRole: Role.common, enabledWhen: (status) => status.enable_drawing },
  { path: '/task', icon: <UnorderedListOutlined />, labelKey: 'menu.task', minRole: Role.common, enabledWhen: (status) => status.enable_task },
  { path: '/setting', icon: <SettingOutlined />, labelKey: 'menu.setting', minRole: Role.common },
];

/** Links of the top bar (public pages). `console` goes to the first page a logged-in user works on. */
export const topBarLinks = [
  { path: '/', labelKey: 'nav.home', icon: <HomeOutlined /> },
  { path: '/token', labelKey: 'nav.console', icon: <AppstoreOutlined /> },
  { path: '/pricing', labelKey: 'nav.pricing', icon: <DollarOutlined /> },
  { path: '/about', labelKey: 'nav.about', icon: <InfoCircleOutlined /> },
] as const;

export function visibleNavigation(user: StoredUser | null, status: SystemStatus | undefined): NavigationItem[] {
  if (!user) return [];
  return navigationItems.filter((item) => {
    if (user.role < item.minRole) return false;
    if (item.enabledWhen && !(status && item.enabledWhen(status))) return false;
    if (item.chatLinks && chatLinkTemplates(status).length === 0) return false;
    return true;
  });
}
