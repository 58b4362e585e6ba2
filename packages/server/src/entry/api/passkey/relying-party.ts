import type { FastifyRequest } from 'fastify';
import { AppError } from '../../../core/http/app-error.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { passkeyMessages } from './passkey.messages.ts';

/** Who the passkeys belong to: the RP ID (a host name) and the page origins allowed to use them. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** Browsers treat these as secure contexts even over plain http (new-api exempts them too). */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** `passkey.allow_insecure_origin` off: an http:// origin is refused unless it is the machine itself. */
function assertSecure(origins: URL[], options: OptionStore): void {
  if (options.getBoolean('passkey.allow_insecure_origin')) return;
  const insecure = origins.find((url) => url.protocol === 'http:' && !loopbackHosts.has(url.hostname));
  if (insecure) throw new AppError(passkeyMessages.insecureOrigin, { params: { origin: insecure.origin } });
}

function parseOrigin(text: string): URL | undefined {
  try {
    return new URL(text.trim());
  } catch {
    return undefined;
  }
}

/**
 * As new-api (service/passkey): the `passkey.origins` and `passkey.rp_id` settings when set, else the
 * server address (`ServerAddress`), else the address the request came to (its Host and scheme; the
 * scheme from X-Forwarded-Proto only behind a trusted proxy). The RP ID is the origin's host name.
 * Plain http origins other than the machine itself need `passkey.allow_insecure_origin`.
 */
export function resolveRelyingParty(request: FastifyRequest, options: OptionStore): RelyingParty {
  const name = options.get('passkey.rp_display_name').trim() || options.get('SystemName').trim() || 'Switchboard';
  const configured = options
    .get('passkey.origins')
    .split(',')
    .map(parseOrigin)
    .filter((url): url is URL => url !== undefined);
  const serverAddress = parseOrigin(options.get('ServerAddress'));
  const fromRequest = request.host ? parseOrigin(`${request.protocol}://${request.host}`) : undefined;
  const origins = configured.length > 0 ? configured : serverAddress ? [serverAddress] : fromRequest ? [fromRequest] : [];
  const [first] = origins;
  if (!first) throw new AppError(passkeyMessages.originUnknown);
  assertSecure(origins, options);
  const id = options.get('passkey.rp_id').trim() || first.hostname;
  return { id, name, origins: origins.map((url) => url.origin) };
}
