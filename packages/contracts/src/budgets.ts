import { z } from 'zod';

/** How often a spending budget starts again (days start at midnight, weeks on Monday, in the server's time zone). */
export const budgetPeriodNames = ['day', 'week', 'month'] as const;
export type BudgetPeriodName = (typeof budgetPeriodNames)[number];

/**
 * A token's or user's spending budget with its current period (`GET /api/budget/…`). Quota units;
 * `budget_quota` 0 is no budget. `period_used` is what was charged since `period_start` (unix seconds).
 */
export interface BudgetView {
  id: number;
  name: string;
  budget_quota: number;
  /** '' when there is no budget. */
  budget_period: BudgetPeriodName | '';
  period_used: number;
  period_start: number;
  period_end: number;
}

/** The user's page: their own budget (set by an administrator) and their alert settings. */
export interface SelfBudgetView extends BudgetView {
  /** The balance under which alerts go out: the user's own, else the site's QuotaRemindThreshold. */
  quota_warning_threshold: number;
  /** True when the user set their own threshold. */
  own_threshold: boolean;
  webhook_url: string;
  /** A secret is set (it is never sent back). */
  webhook_secret_set: boolean;
  site_threshold: number;
}

/** `PUT /api/budget/tokens/:id` and `PUT /api/budget/users/:id`: 0 quota clears the budget. */
export const budgetRequestSchema = z
  .object({
    budget_quota: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    budget_period: z.enum([...budgetPeriodNames, '']),
  })
  .refine((value) => value.budget_quota === 0 || value.budget_period !== '', { path: ['budget_period'], message: 'required with a budget' });
export type BudgetRequest = z.infer<typeof budgetRequestSchema>;

/**
 * `PUT /api/budget/self/alerts` (new-api's setting names). A threshold of null follows the site's;
 * `webhook_secret` undefined keeps the stored one, '' removes it.
 */
export const alertSettingsRequestSchema = z.object({
  quota_warning_threshold: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
  webhook_url: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(1024)]),
  webhook_secret: z.string().max(256).optional(),
});
export type AlertSettingsRequest = z.infer<typeof alertSettingsRequestSchema>;

/** The ways new-api sends a user's notices (`notify_type`). */
export const notifyTypes = ['email', 'webhook', 'bark', 'gotify'] as const;
export type NotifyType = (typeof notifyTypes)[number];

/** A text field where null or absent reads as '' (Go's JSON decoding in new-api), trimmed. */
const optionalText = (max: number) =>
  z
    .string()
    .max(max)
    .nullish()
    .transform((value) => (value ?? '').trim());

/**
 * `PUT /api/user/setting`, the personal notification settings of new-api's console, field for field.
 * Only the types are checked here; the rules (a known `notify_type`, a threshold above 0, the address
 * the type needs) are the server's, with new-api's messages. Null or absent reads as Go's zero value.
 */
export const notifySettingsRequestSchema = z.object({
  notify_type: optionalText(32),
  quota_warning_threshold: z
    .number()
    .max(Number.MAX_SAFE_INTEGER)
    .nullish()
    .transform((value) => value ?? 0),
  webhook_url: optionalText(1024),
  webhook_secret: optionalText(256),
  notification_email: optionalText(254),
  bark_url: optionalText(1024),
  gotify_url: optionalText(1024),
  gotify_token: optionalText(256),
  gotify_priority: z
    .number()
    .int()
    .nullish()
    .transform((value) => value ?? 0),
  /** Administrators only; absent keeps the stored choice. */
  upstream_model_update_notify_enabled: z.boolean().nullish(),
  accept_unset_model_ratio_model: z
    .boolean()
    .nullish()
    .transform((value) => value === true),
  record_ip_log: z
    .boolean()
    .nullish()
    .transform((value) => value === true),
});
export type NotifySettingsRequest = z.infer<typeof notifySettingsRequestSchema>;
