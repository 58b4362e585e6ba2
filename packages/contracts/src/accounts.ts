import { z } from 'zod';
import { finiteNumber, idNumber, nameText, wholeNumber } from './input-fields.ts';

/** Limits the console shows and the server enforces. */
export const accountLimits = {
  usernameMax: 12,
  displayNameMax: 20,
  passwordMin: 8,
  passwordMax: 20,
  emailMax: 50,
  groupMax: 64,
  remarkMax: 255,
} as const;

/**
 * A user as the console API returns it (the classic new-api field names). The password and the
 * system access token are never part of it.
 */
export interface UserView {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
  aff_code: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id: number;
  remark: string;
  created_at: number;
  last_login_at: number;
  /** Set (an ISO time) when the account is deregistered. */
  DeletedAt: string | null;
}

/**
 * `GET /api/user/self`: the user with `setting`, the JSON text of the personal settings new-api's
 * console reads back (notify type, threshold, addresses, flags). Secrets in it (webhook_secret,
 * gotify_token) are left out; '' when nothing is set.
 */
export interface SelfView extends UserView {
  setting: string;
}

/** What login answers in `data` (and what the console stores locally). */
export interface LoginView {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

/**
 * A login or registration text field where `null` means absent (''), as Go's JSON decoding in new-api
 * reads it: new-api's console sends `aff_code: null` when there was no invite link.
 */
const nullAsEmpty = (text: z.ZodString) => text.nullish().transform((value) => value ?? '');

/**
 * Request bodies take JSON numbers only, as new-api's Go handlers bind them (a string, `null` or
 * `true` in a number field is an invalid parameter there too); names refuse control characters.
 */
export const loginRequestSchema = z.object({ username: nullAsEmpty(z.string()), password: nullAsEmpty(z.string()) });

export const registerRequestSchema = z.object({
  username: nullAsEmpty(nameText),
  password: nullAsEmpty(z.string()),
  password2: z
    .string()
    .nullish()
    .transform((value) => value ?? undefined),
  email: nullAsEmpty(z.string()),
  verification_code: nullAsEmpty(z.string()),
  aff_code: nullAsEmpty(z.string()),
  /** Our registration form's checkbox, ticked when a user agreement or privacy policy is set (the server does not require it, as new-api). */
  agreed_to_terms: z
    .boolean()
    .nullish()
    .transform((value) => value === true),
});

export const createUserRequestSchema = z.object({
  username: nameText.default(''),
  password: z.string().default(''),
  display_name: nameText.default(''),
  role: wholeNumber.optional(),
});

export const updateUserRequestSchema = z.object({
  id: idNumber,
  username: nameText.optional(),
  display_name: nameText.optional(),
  password: z.string().optional(),
  group: nameText.optional(),
  remark: z.string().optional(),
  /** The new balance; the server applies it as an atomic adjustment by (new − current). */
  quota: wholeNumber.optional(),
  /** Or the signed amount to add directly (preferred: immune to concurrent spending). */
  quota_delta: wholeNumber.optional(),
});

export const updateSelfRequestSchema = z.object({
  username: nameText.optional(),
  display_name: nameText.optional(),
  password: z.string().optional(),
  original_password: z.string().optional(),
});

/** What a client sends (`z.input`): the console's own requests are typed by the schemas that check them. */
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;
export type UpdateSelfRequest = z.input<typeof updateSelfRequestSchema>;

export const manageActions = ['promote', 'demote', 'disable', 'enable', 'delete'] as const;
export type ManageAction = (typeof manageActions)[number];

export const manageUserRequestSchema = z.object({ id: idNumber, action: z.enum(manageActions) });

export const affTransferRequestSchema = z.object({ quota: wholeNumber });

export const resetPasswordRequestSchema = z.object({ email: z.string().default(''), token: z.string().default('') });

/** Option values are text; numbers and switches sent as JSON are written as text and checked per key. */
export const updateOptionRequestSchema = z.object({ key: z.string().min(1), value: z.union([z.string(), finiteNumber, z.boolean()]).transform(String) });

/**
 * One entry of `GET /api/user/self/groups`, keyed by group name, as every new-api console reads it:
 * the ratio the user pays in that group (`'自动'` for the `auto` group, whose ratio depends on the
 * group chosen per request) and its label.
 */
export interface UsableGroup {
  ratio: number | string;
  desc: string;
}
