import { z } from 'zod';

/** `GET /api/setup` (new-api's shape): `status` is true once the first-run setup is done. */
export interface SetupState {
  status: boolean;
  root_init: boolean;
  database_type: string;
}

/**
 * `POST /api/setup`, new-api's body: the root account's name and new password, and the use mode
 * (`SelfUseModeEnabled`: models without a price may be called; off, every model needs one).
 */
export const setupRequestSchema = z.object({
  username: z.string().trim().optional(),
  password: z.string(),
  confirmPassword: z.string(),
  SelfUseModeEnabled: z.boolean(),
  DemoSiteEnabled: z.boolean().optional(),
});
export type SetupRequest = z.infer<typeof setupRequestSchema>;

/** `GET /api/pricing/unpriced`: the models callers would be refused for lack of a price or ratio. */
export interface UnpricedModels {
  /** SelfUseModeEnabled: every model may be called, so none is listed. */
  self_use_mode: boolean;
  models: string[];
}
