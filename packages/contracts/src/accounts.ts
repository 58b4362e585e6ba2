import { z } from 'zod';

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

/** What login answers in `data` (and what the console stores locally). */
export interface LoginView {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

/** Body fields may arrive as numbers or numeric strings from older clients. */
const id = z.coerce.number().int().positive();

export const loginRequestSchema = z.object({ username: z.string().default(''), password: z.string().default('') });

export const registerRequestSchema = z.object({
  username: z.string().default(''),
  password: z.string().default(''),
  password2: z.string().optional(),
  email: z.string().default(''),
  verification_code: z.string().default(''),
  aff_code: z.string().default(''),
});

export const createUserRequestSchema = z.object({
  username: z.string().default(''),
  password: z.string().default(''),
  display_name: z.string().default(''),
  role: z.coerce.number().int().optional(),
});

export const updateUserRequestSchema = z.object({
  id,
  username: z.string().optional(),
  display_name: z.string().optional(),
  password: z.string().optional(),
  group: z.string().optional(),
  remark: z.string().optional(),
  /** The new balance; the server applies it as an atomic adjustment by (new − current). */
  quota: z.coerce.number().int().optional(),
  /** Or the signed amount to add directly (preferred: immune to concurrent spending). */
  quota_delta: z.coerce.number().int().optional(),
});

export const updateSelfRequestSchema = z.object({
  username: z.string().optional(),
  display_name: z.string().optional(),
  password: z.string().optional(),
  original_password: z.string().optional(),
});

export const manageActions = ['promote', 'demote', 'disable', 'enable', 'delete'] as const;
export type ManageAction = (typeof manageActions)[number];

export const manageUserRequestSchema = z.object({ id, action: z.enum(manageActions) });

export const affTransferRequestSchema = z.object({ quota: z.coerce.number().int() });

export const resetPasswordRequestSchema = z.object({ email: z.string().default(''), token: z.string().default('') });

export const updateOptionRequestSchema = z.object({ key: z.string().min(1), value: z.union([z.string(), z.number(), z.boolean()]).transform(String) });
