import { useCallback, useRef, type RefObject } from 'react';

/**
 * Puts the cursor in a dialog's first field once the dialog is open: the ref goes on the field, the
 * callback in the Modal's `afterOpenChange`. `autoFocus` alone fails when the dialog opens without
 * motion (the system's reduced-motion setting): the field mounts while the dialog is still hidden,
 * the browser refuses to focus it, and the dialog then focuses its own panel.
 */
export function useFocusOnOpen<Field extends { focus: () => void }>(): [RefObject<Field | null>, (open: boolean) => void] {
  const ref = useRef<Field>(null);
  const afterOpenChange = useCallback((open: boolean) => {
    if (open) ref.current?.focus();
  }, []);
  return [ref, afterOpenChange];
}
