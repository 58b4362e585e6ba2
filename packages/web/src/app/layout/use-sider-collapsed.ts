import { useState } from 'react';

const storageKey = 'sider_collapsed';

/** The user's own choice wins; until they make one, the administrator's DefaultCollapseSidebar applies. */
export function useSiderCollapsed(defaultCollapsed: boolean): [boolean, (collapsed: boolean) => void] {
  const [choice, setChoice] = useState<string | null>(() => localStorage.getItem(storageKey));
  const collapsed = choice === null ? defaultCollapsed : choice === 'true';
  const update = (next: boolean) => {
    localStorage.setItem(storageKey, String(next));
    setChoice(String(next));
  };
  return [collapsed, update];
}
