/**
 * Which administrator-set links a browser may follow. The server refuses other links when they are
 * saved and the console refuses to render ones stored before (or imported), so a `javascript:`,
 * `data:`, `vbscript:` or `file:` link can never run in a visitor's page. Allow-lists, never deny-lists.
 */

/**
 * Desktop apps that register a URL scheme and take a gateway's address and key through it: the
 * ones new-api's default `Chats` links to. A browser hands such a link to the operating system.
 */
export const chatAppSchemes: readonly string[] = ['cherrystudio', 'aionui', 'ama', 'opencat', 'ccswitch'];

const webSchemes: readonly string[] = ['http', 'https'];

/**
 * The scheme a browser would use for `url` (lower case, without the colon), or undefined for a
 * relative link. The WHATWG parser strips the controls and whitespace browsers ignore, so
 * " java\tscript:" is recognised as javascript.
 */
export function linkSchemeOf(url: string): string | undefined {
  if (!URL.canParse(url)) return undefined;
  return new URL(url).protocol.slice(0, -1).toLowerCase();
}

/** An absolute http(s) link: a web page to open, frame or redirect to. */
export function isWebLink(url: string): boolean {
  return webSchemes.includes(linkSchemeOf(url) ?? '');
}

/** A chat front end: a web page, or a desktop app's link with an allowed scheme. */
export function isChatLink(url: string): boolean {
  const scheme = linkSchemeOf(url) ?? '';
  return webSchemes.includes(scheme) || chatAppSchemes.includes(scheme);
}

/** An image the console loads (logo, QR code): http(s), or a path on the console's own origin. */
export function isImageSource(url: string): boolean {
  return URL.canParse(url, 'https://console.invalid/') && webSchemes.includes(new URL(url, 'https://console.invalid/').protocol.slice(0, -1));
}
