import { useMediaQuery } from './use-media-query.ts';

/**
 * Whether the system asks for less motion (an accessibility setting on every desktop and phone OS).
 * The console then turns antd's motion off: popovers, dialogs, drawers and messages appear and go at
 * once instead of zooming and fading.
 */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery('(prefers-reduced-motion: reduce)');
}
