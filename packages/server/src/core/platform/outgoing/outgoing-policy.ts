import { isIP } from 'node:net';
import { bareAddress, isPrivateAddress } from './address-ranges.ts';
import { domainListed, normalHost } from './domain-list.ts';
import type { FetchSetting } from './fetch-setting.ts';
import { outgoingMessages } from './outgoing.messages.ts';
import { OutgoingRefused } from './outgoing-refused.ts';

/**
 * The checks of an address that need no name resolution: scheme, credentials, port, the domain
 * lists, and the address itself when the host is one. The URL parser has already turned every
 * spelling of an IPv4 address (127.1, 2130706433, 0x7f000001, 0177.0.0.1) into its dotted form.
 * Answers the parsed URL; throws OutgoingRefused.
 */
export function checkUrl(text: string, setting: FetchSetting): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutgoingRefused(outgoingMessages.invalidUrl, { url: text.slice(0, 200) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutgoingRefused(outgoingMessages.schemeNotAllowed, { scheme: url.protocol.slice(0, -1) });
  if (!setting.enabled) return url;
  if (url.username || url.password) throw new OutgoingRefused(outgoingMessages.credentialsInUrl, {});
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  if (!setting.ports.allows(port)) throw new OutgoingRefused(outgoingMessages.portNotAllowed, { port });
  const host = bareAddress(url.hostname);
  if (isIP(host) !== 0) {
    checkAddress(host, host, setting, true);
    return url;
  }
  // RFC 6761: localhost and its subdomains are the local host whatever a resolver says (some answer nothing).
  const name = normalHost(host);
  if (name === 'localhost' || name.endsWith('.localhost')) checkAddress(host, '127.0.0.1', setting, false);
  const listed = domainListed(host, setting.domains);
  if (setting.domainAllowList && !listed) throw new OutgoingRefused(outgoingMessages.domainNotInAllowList, { host: normalHost(host) });
  if (!setting.domainAllowList && listed) throw new OutgoingRefused(outgoingMessages.domainInDenyList, { host: normalHost(host) });
  return url;
}

/**
 * Checks an address a connection is about to use: the literal host of the URL, or one a name
 * resolved to (`host` is what the caller asked for; the message names it, never the resolved
 * address). An address on the IP allow list passes even in a private range: that is how an operator
 * lets the server reach its own network (new-api needs allow_private_ip for it as well).
 */
export function checkAddress(host: string, address: string, setting: FetchSetting, literal: boolean): void {
  if (!setting.enabled) return;
  const judgedByList = literal || setting.applyIpFilterForDomain;
  const listed = judgedByList && setting.addresses.has(address);
  if (setting.ipAllowList && listed) return;
  if (!setting.allowPrivateIp && isPrivateAddress(address)) throw new OutgoingRefused(outgoingMessages.privateAddress, { host });
  if (!judgedByList) return;
  if (setting.ipAllowList) throw new OutgoingRefused(outgoingMessages.ipNotInAllowList, { host });
  if (listed) throw new OutgoingRefused(outgoingMessages.ipInDenyList, { host });
}
