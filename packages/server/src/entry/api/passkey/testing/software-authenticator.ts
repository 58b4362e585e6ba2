import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const base64url = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));

/** Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data. */
const flagUserPresent = 0x01;
const flagUserVerified = 0x04;
const flagAttestedData = 0x40;

export interface CeremonyTweaks {
  /** The page origin the browser reports (default: the authenticator's origin). */
  origin?: string;
  /** Sign over another challenge than the server's. */
  challenge?: string;
  /** Report the user as verified (PIN, biometrics); default true. */
  userVerified?: boolean;
  /** Break the signature (a forged answer). */
  corruptSignature?: boolean;
  /** Send this signature counter instead of the next one (a cloned authenticator). */
  counter?: number;
}

/**
 * A platform authenticator in software, for tests: one ES256 (P-256) credential, 'none' attestation,
 * and answers built byte by byte as WebAuthn Level 2 specifies them (authenticator data, the COSE key
 * in CBOR, clientDataJSON, and a DER ECDSA signature over authenticatorData ‖ SHA-256(clientDataJSON)),
 * so the server's real verification runs on them.
 */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private counter = 0;
  private userHandle = '';
  private readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = createPrivateKey(pair.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    this.publicKey = pair.publicKey;
  }

  get credentialIdBase64url(): string {
    return base64url(this.credentialId);
  }

  /** `navigator.credentials.create` on the server's options. */
  register(options: PublicKeyCredentialCreationOptionsJSON, tweaks: CeremonyTweaks = {}): RegistrationResponseJSON & { name?: string } {
    this.userHandle = options.user.id;
    const clientData = this.clientData('webauthn.create', tweaks.challenge ?? options.challenge, tweaks.origin);
    const authData = Buffer.concat([this.authenticatorHead(options.rp.id ?? '', tweaks, flagAttestedData), this.attestedCredentialData()]);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(authData)],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    return {
      id: this.credentialIdBase64url,
      rawId: this.credentialIdBase64url,
      type: 'public-key',
      response: { clientDataJSON: base64url(clientData), attestationObject: base64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get` on the server's options: a signed assertion. */
  authenticate(options: PublicKeyCredentialRequestOptionsJSON, tweaks: CeremonyTweaks = {}): AuthenticationResponseJSON {
    this.counter = tweaks.counter ?? this.counter + 1;
    const clientData = this.clientData('webauthn.get', tweaks.challenge ?? options.challenge, tweaks.origin);
    const authData = this.authenticatorHead(options.rpId ?? '', tweaks, 0);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), this.privateKey);
    if (tweaks.corruptSignature) signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 0xff, signature.length - 1);
    return {
      id: this.credentialIdBase64url,
      rawId: this.credentialIdBase64url,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientData),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian). */
  private authenticatorHead(rpId: string, tweaks: CeremonyTweaks, extraFlags: number): Buffer {
    const flags = flagUserPresent | (tweaks.userVerified === false ? 0 : flagUserVerified) | extraFlags;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count]);
  }

  /** AAGUID (16 zero bytes: 'none' attestation) ‖ credential id length (2) ‖ credential id ‖ COSE_Key. */
  private attestedCredentialData(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const coseKey = isoCBOR.encode(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(isoBase64URL.toBuffer(jwk.x ?? ''))],
        [-3, new Uint8Array(isoBase64URL.toBuffer(jwk.y ?? ''))],
      ]) as Parameters<typeof isoCBOR.encode>[0],
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    return Buffer.concat([Buffer.alloc(16), length, this.credentialId, coseKey]);
  }
}
