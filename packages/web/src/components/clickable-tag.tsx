import { Tag, type TagProps } from 'antd';
import type { KeyboardEvent } from 'react';

/**
 * A tag that does something when clicked, usable without a mouse: announced as a button, reachable
 * with Tab, and worked with Enter or Space like one.
 */
export function ClickableTag({ onClick, style, ...tag }: Omit<TagProps, 'onClick' | 'role' | 'tabIndex' | 'onKeyDown'> & { onClick: () => void }) {
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    // Space would otherwise scroll the page.
    event.preventDefault();
    onClick();
  };
  return <Tag {...tag} role="button" tabIndex={0} onClick={onClick} onKeyDown={onKeyDown} style={{ cursor: 'pointer', ...style }} />;
}
