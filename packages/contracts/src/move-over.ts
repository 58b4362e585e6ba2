import { z } from 'zod';

/**
 * What Switchboard did when it first opened a one-api database in place (migration 0024): the
 * root's console shows it once, until dismissed. `GET /api/move-over` answers it, or null when there
 * is nothing to show.
 */
export const moveOverChannelSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** one-api's name for the vendor its type number meant there. */
  vendor: z.string(),
  /** The type number in one-api, and ours now. */
  from: z.number(),
  to: z.number(),
  /** Disabled because nothing here speaks that vendor's API. */
  disabled: z.boolean(),
});

export const moveOverReportSchema = z.object({
  channels: z.array(moveOverChannelSchema),
  tokensWithModelLimits: z.number(),
  tokensWithAllowIps: z.number(),
  deletedUsers: z.number(),
});

export type MoveOverChannel = z.infer<typeof moveOverChannelSchema>;
export type MoveOverReport = z.infer<typeof moveOverReportSchema>;

export interface MoveOverNotice extends MoveOverReport {
  source: 'one-api';
  /** Unix seconds. */
  mapped_at: number;
}
