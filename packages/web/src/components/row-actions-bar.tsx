import { Flex } from 'antd';
import type { ReactNode } from 'react';
import { useIsMobile } from '../lib/use-is-mobile.ts';

/**
 * A table row's action buttons, in the right-pinned actions column: one line on a wide screen, and
 * on a phone wrapped into a narrow block so the pinned column leaves room for the row's key columns.
 */
export function RowActionsBar({ children }: { children: ReactNode }) {
  const phone = useIsMobile();
  return (
    <Flex gap={4} wrap={phone} style={phone ? { maxWidth: 132 } : undefined} data-testid="row-actions">
      {children}
    </Flex>
  );
}
