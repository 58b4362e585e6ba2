import { z } from 'zod';

/** `GET /api/user/2fa/status` (new-api's shape; `locked` stays false: the failure limiter refuses instead). */
export interface TwoFactorStatus {
  enabled: boolean;
  locked: boolean;
  /** Only while enabled. */
  backup_codes_remaining?: number;
}

/** `POST /api/user/2fa/setup`: `qr_code_data` is the otpauth URL the console draws as a QR code. */
export interface TwoFactorSetup {
  secret: string;
  qr_code_data: string;
  backup_codes: string[];
}

/** The login answer when a second factor is due; the console then posts the code to `/api/user/login/2fa`. */
export interface TwoFactorChallenge {
  require_2fa: true;
  flow_token: string;
  expires_at: number;
  /** The second factors the user has: a TOTP code (or backup code) and/or a passkey. */
  methods?: Array<'totp' | 'passkey'>;
}

const code = z.string().trim().min(1).max(32);

/** Enable, disable, regenerate backup codes: a TOTP code (disable also takes a backup code). */
export const twoFactorCodeRequestSchema = z.object({ code });

/** `POST /api/user/login/2fa`; without `flow_token` the pending login is read from its cookie. */
export const twoFactorLoginRequestSchema = z.object({ code, flow_token: z.string().trim().max(128).optional() });

/** `POST /api/verify` (re-verification before a sensitive action). */
export const verifyRequestSchema = z.object({ method: z.string().trim().max(16).default('2fa'), code: z.string().trim().max(32).default('') });
