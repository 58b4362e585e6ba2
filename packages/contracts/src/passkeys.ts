import { z } from 'zod';

/** One of the caller's passkeys as `GET /api/user/passkey` lists it (never the key material). */
export interface PasskeyView {
  id: number;
  name: string;
  /** Unix seconds; 0 when never used. */
  created_at: number;
  last_used_at: number;
  /** Synced passkeys (iCloud Keychain, Google Password Manager) are backup-eligible. */
  backup_eligible: boolean;
}

/** `GET /api/user/passkey`: new-api's `enabled` and `last_used_at` (newest use), plus the list. */
export interface PasskeyStatus {
  enabled: boolean;
  last_used_at?: number;
  passkeys: PasskeyView[];
}

/** `GET /api/user/2fa/stats` (new-api's shape; ours counts a passkey as a second factor too). */
export interface TwoFactorStats {
  total_users: number;
  enabled_users: number;
  /** e.g. `"12.5%"`. */
  enabled_rate: string;
}

export const passkeyNameMax = 64;

const passkeyName = z.string().trim().max(passkeyNameMax);

/** `PUT /api/user/passkey/:id`: a new name. */
export const renamePasskeyRequestSchema = z.object({ name: passkeyName.min(1) });

/** The browser's `PublicKeyCredential` as JSON (@simplewebauthn/browser), checked in depth by the WebAuthn library. */
const credentialJson = z.looseObject({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().min(1).max(8192) }),
});

/**
 * `POST /api/user/passkey/register/finish`: the credential as new-api's console posts it (the body is
 * the credential), with an optional `name` beside its fields.
 */
export const passkeyRegistrationFinishSchema = credentialJson.extend({ name: passkeyName.optional() });

/** `POST /api/user/passkey/login/begin`: with `flow_token` the passkey is the second factor of a pending login. */
export const passkeyLoginBeginSchema = z.object({ flow_token: z.string().trim().max(128).optional() }).optional();

/** `POST /api/user/passkey/login/finish` and `/verify/finish`: the assertion (the begin call said whose login it is). */
export const passkeyAssertionSchema = credentialJson;
