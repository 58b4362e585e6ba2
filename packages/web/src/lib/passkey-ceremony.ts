/**
 * What the passkey begin routes answer, in new-api's shape: `options` is the WebAuthn
 * `CredentialCreationOptions` / `CredentialRequestOptions` wrapper, the ceremony's options under `publicKey`.
 */
export interface PasskeyCeremony<Options> {
  options: { publicKey: Options };
}
