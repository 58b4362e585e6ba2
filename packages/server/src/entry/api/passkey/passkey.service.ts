import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { LogType, type PasskeyStatus } from '@switchboard/contracts';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { assertOutranks } from '../user/role-rules.ts';
import type { UserRepository } from '../user/user.repository.ts';
import { userMessages } from '../user/user.messages.ts';
import {
  base64ToBase64Url,
  base64ToBytes,
  base64UrlToBase64,
  base64UrlToUtf8,
  bytesToBase64,
  hexToBytes,
  isBase64Url,
  utf8ToBytes,
} from './passkey-encoding.ts';
import { type Ceremony, ceremonyTimeoutMs, type PasskeyCeremonies } from './passkey-ceremonies.ts';
import type { PasskeyRecord, PasskeyRepository } from './passkey.repository.ts';
import { passkeyMessages } from './passkey.messages.ts';
import type { RelyingParty } from './relying-party.ts';
import { keyedLogContent, type LogContentKey, type LogContentParams } from '../../../domain/logs/log-content.ts';

export const maxPasskeysPerUser = 10;

export interface PasskeyDependencies {
  repository: PasskeyRepository;
  ceremonies: PasskeyCeremonies;
  users: UserRepository;
  options: OptionStore;
  logWriter: LogWriter;
  clock: Clock;
}

/** new-api stores credential ids in standard base64; WebAuthn JSON carries them base64url. */
const storedId = base64UrlToBase64;
const wireId = base64ToBase64Url;
/** The WebAuthn user handle: the user id as text, as new-api sets it (its login checks it against the credential's owner). */
const userHandle = (userId: number) => utf8ToBytes(String(userId));

/** The WebAuthn library, loaded on the first ceremony: most processes never see one, and it weighs about 5 MB of heap. */
let webAuthnLibrary: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webAuthn = () => (webAuthnLibrary ??= import('@simplewebauthn/server'));

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): several per user, each named; the ceremonies' challenges
 * live server-side (PasskeyCeremonies). A passkey signs a login alone (discoverable credential, user
 * verification required), completes a password login as its second factor, or re-verifies a session.
 */
export class PasskeyService {
  private readonly deps: PasskeyDependencies;

  constructor(deps: PasskeyDependencies) {
    this.deps = deps;
  }

  /** `passkey.user_verification`: what adding a passkey and a second-factor check ask of the authenticator. */
  private userVerification(): 'required' | 'preferred' | 'discouraged' {
    const setting = this.deps.options.get('passkey.user_verification');
    return setting === 'required' || setting === 'discouraged' ? setting : 'preferred';
  }

  /** `passkey.attachment_preference`: this device's authenticator, a security key, or (empty) either. */
  private attachment(): 'platform' | 'cross-platform' | undefined {
    const setting = this.deps.options.get('passkey.attachment_preference');
    return setting === 'platform' || setting === 'cross-platform' ? setting : undefined;
  }

  assertEnabled(): void {
    if (!this.deps.options.getBoolean('passkey.enabled')) throw new AppError(passkeyMessages.disabled);
  }

  async hasPasskey(userId: number): Promise<boolean> {
    return (await this.deps.repository.countByUser(userId)) > 0;
  }

  async status(userId: number): Promise<PasskeyStatus> {
    const passkeys = await this.deps.repository.listByUser(userId);
    const views = passkeys.map((passkey) => ({
      id: passkey.id,
      name: passkey.name,
      created_at: passkey.createdAt,
      last_used_at: passkey.lastUsedAt,
      backup_eligible: passkey.backupEligible,
    }));
    if (views.length === 0) return { enabled: false, passkeys: [] };
    return { enabled: true, last_used_at: Math.max(...views.map((view) => view.last_used_at)), passkeys: views };
  }

  async registrationOptions(user: CurrentUser, party: RelyingParty): Promise<PublicKeyCredentialCreationOptionsJSON> {
    this.assertEnabled();
    const existing = await this.deps.repository.listByUser(user.id);
    if (existing.length >= maxPasskeysPerUser) throw new AppError(passkeyMessages.tooMany, { params: { max: maxPasskeysPerUser } });
    const { generateRegistrationOptions } = await webAuthn();
    const options = await generateRegistrationOptions({
      rpName: party.name,
      rpID: party.id,
      userName: user.username,
      userDisplayName: user.displayName || user.username,
      userID: userHandle(user.id),
      timeout: ceremonyTimeoutMs,
      attestationType: 'none',
      excludeCredentials: existing.map((passkey) => ({ id: wireId(passkey.credentialId), transports: passkey.transports })),
      // Discoverable, so the same passkey also logs in without a username.
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: this.userVerification(),
        ...(this.attachment() ? { authenticatorAttachment: this.attachment() } : {}),
      },
    });
    await this.deps.ceremonies.remember(options.challenge, { purpose: 'register', userId: user.id, rpId: party.id, origins: party.origins });
    return options;
  }

  async register(user: CurrentUser, response: RegistrationResponseJSON, name: string | undefined): Promise<void> {
    this.assertEnabled();
    const ceremony = await this.deps.ceremonies.take(response.response.clientDataJSON, 'register', user.id);
    const { verifyRegistrationResponse } = await webAuthn();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: ceremony.challenge,
      expectedOrigin: ceremony.origins,
      expectedRPID: ceremony.rpId,
      requireUserVerification: this.userVerification() === 'required',
    }).catch(() => undefined);
    if (!verification?.verified) throw new AppError(passkeyMessages.verifyFailed);
    const { credential, aaguid, fmt, userVerified, credentialBackedUp, credentialDeviceType } = verification.registrationInfo;
    const credentialId = storedId(credential.id);
    if (await this.deps.repository.credentialIdTaken(credentialId)) throw new AppError(passkeyMessages.alreadyRegistered);
    const count = await this.deps.repository.countByUser(user.id);
    if (count >= maxPasskeysPerUser) throw new AppError(passkeyMessages.tooMany, { params: { max: maxPasskeysPerUser } });
    const label = name?.trim() || `Passkey ${count + 1}`;
    await this.deps.repository.insert(
      {
        userId: user.id,
        name: label,
        credentialId,
        publicKey: bytesToBase64(credential.publicKey),
        signCount: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        attestationType: fmt,
        aaguid: bytesToBase64(hexToBytes(aaguid.replace(/-/g, ''))),
        userVerified,
        backupEligible: credentialDeviceType === 'multiDevice',
        backupState: credentialBackedUp,
        attachment: response.authenticatorAttachment ?? '',
      },
      this.deps.clock.now(),
    );
    await this.log(user.id, user.username, LogType.system, `注册 Passkey（${label}）`, 'log.passkey_registered', { label });
  }

  /** Options for `navigator.credentials.get`: any discoverable passkey, or (second factor, re-verification) the user's own. */
  async assertionOptions(
    party: RelyingParty,
    purpose: 'login' | 'verify',
    forUser?: { userId: number; flowToken?: string },
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    this.assertEnabled();
    const passkeys = forUser ? await this.deps.repository.listByUser(forUser.userId) : [];
    if (forUser && passkeys.length === 0) throw new AppError(passkeyMessages.noneBound);
    const { generateAuthenticationOptions } = await webAuthn();
    const options = await generateAuthenticationOptions({
      rpID: party.id,
      timeout: ceremonyTimeoutMs,
      allowCredentials: passkeys.map((passkey) => ({ id: wireId(passkey.credentialId), transports: passkey.transports })),
      // Alone, a passkey is the whole login: it must prove the user (PIN, biometrics), not only presence.
      userVerification: forUser ? this.userVerification() : 'required',
    });
    await this.deps.ceremonies.remember(options.challenge, {
      purpose,
      ...(forUser ? { userId: forUser.userId } : {}),
      ...(forUser?.flowToken ? { flowToken: forUser.flowToken } : {}),
      rpId: party.id,
      origins: party.origins,
    });
    return options;
  }

  /** Checks a login assertion; answers the passkey's owner and the ceremony (its flow token, when a second factor). */
  async finishLogin(response: AuthenticationResponseJSON): Promise<{ userId: number; ceremony: Ceremony }> {
    this.assertEnabled();
    const ceremony = await this.deps.ceremonies.take(response.response.clientDataJSON, 'login');
    const passkey = await this.deps.repository.findByCredentialId(storedId(response.rawId));
    if (!passkey || (ceremony.userId !== undefined && passkey.userId !== ceremony.userId)) throw new AppError(passkeyMessages.verifyFailed);
    // A discoverable credential names its user; it must be the passkey's owner (as new-api checks).
    const handle = response.response.userHandle;
    if (handle && isBase64Url(handle) && base64UrlToUtf8(handle) !== String(passkey.userId)) throw new AppError(passkeyMessages.verifyFailed);
    await this.assertSigned(passkey, response, ceremony, ceremony.userId === undefined || this.userVerification() === 'required');
    return { userId: passkey.userId, ceremony };
  }

  /** Re-verification of a logged-in user with one of their passkeys. */
  async finishVerify(user: CurrentUser, response: AuthenticationResponseJSON): Promise<void> {
    this.assertEnabled();
    const ceremony = await this.deps.ceremonies.take(response.response.clientDataJSON, 'verify', user.id);
    const passkey = await this.deps.repository.findByCredentialId(storedId(response.rawId));
    if (!passkey || passkey.userId !== user.id) throw new AppError(passkeyMessages.verifyFailed);
    await this.assertSigned(passkey, response, ceremony, this.userVerification() === 'required');
  }

  /** The signature over the challenge with the stored public key, and a signature counter that moved forward. */
  private async assertSigned(
    passkey: PasskeyRecord,
    response: AuthenticationResponseJSON,
    ceremony: Ceremony,
    requireUserVerification: boolean,
  ): Promise<void> {
    let newCounter: number;
    let backedUp: boolean;
    const { verifyAuthenticationResponse } = await webAuthn();
    try {
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: ceremony.origins,
        expectedRPID: ceremony.rpId,
        requireUserVerification,
        credential: {
          id: wireId(passkey.credentialId),
          publicKey: base64ToBytes(passkey.publicKey),
          counter: passkey.signCount,
          transports: passkey.transports,
        },
      });
      if (!verification.verified) throw new AppError(passkeyMessages.verifyFailed);
      newCounter = verification.authenticationInfo.newCounter;
      backedUp = verification.authenticationInfo.credentialBackedUp;
    } catch (error) {
      // A counter that did not move forward: a cloned authenticator may be signing (WebAuthn §6.1.1).
      if (error instanceof Error && /counter/i.test(error.message)) await this.deps.repository.flagClone(passkey.id);
      throw new AppError(passkeyMessages.verifyFailed);
    }
    if (!(await this.deps.repository.recordUse(passkey.id, passkey.signCount, newCounter, backedUp, this.deps.clock.now()))) {
      throw new AppError(passkeyMessages.verifyFailed);
    }
  }

  async rename(user: CurrentUser, id: number, name: string): Promise<void> {
    if (!(await this.deps.repository.rename(user.id, id, name.trim(), this.deps.clock.now()))) throw new AppError(passkeyMessages.notFound);
  }

  /** Removes one passkey, or with no id all of them (new-api's DELETE /api/user/passkey). */
  async remove(user: CurrentUser, id: number | undefined): Promise<void> {
    const removed = id === undefined ? (await this.deps.repository.deleteAllOf(user.id)) > 0 : await this.deps.repository.delete(user.id, id);
    if (!removed) throw new AppError(id === undefined ? passkeyMessages.noneBound : passkeyMessages.notFound);
    if (id === undefined) await this.log(user.id, user.username, LogType.system, '解绑全部 Passkey', 'log.passkeys_removed');
    else await this.log(user.id, user.username, LogType.system, `解绑 Passkey（ID ${id}）`, 'log.passkey_removed', { id });
  }

  /** An administrator removes every passkey of a user who lost them; logged for both to see. */
  async adminReset(actor: CurrentUser, targetId: number): Promise<void> {
    const target = await this.deps.users.findById(targetId);
    if (!target) throw new AppError(userMessages.notFound);
    assertOutranks(actor.role, target.role, passkeyMessages.noPermission);
    const removed = await this.deps.repository.deleteAllOf(targetId);
    if (removed === 0) throw new AppError(passkeyMessages.noneBound);
    await this.log(
      target.id,
      target.username,
      LogType.manage,
      `管理员（${actor.username}，ID ${actor.id}）重置了用户的 Passkey（${removed} 个）`,
      'log.passkeys_reset_by_admin',
      {
        admin: actor.username,
        admin_id: actor.id,
        count: removed,
      },
    );
  }

  private async log(userId: number, username: string, type: number, content: string, key: LogContentKey, params: LogContentParams = {}): Promise<void> {
    await this.deps.logWriter.record({ user_id: userId, username, type, ...keyedLogContent(content, key, params) });
  }
}
