import { useMediaQuery } from './use-media-query.ts';

/** The mobile threshold: below 600 px the side menu moves into a drawer and paddings shrink. */
export function useIsMobile(): boolean {
  return useMediaQuery('(max-width: 599.98px)');
}
