/** Base64 of UTF-8 text (btoa alone only takes Latin-1). */
function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

/**
 * Fills a chat link template the classic way: {key} → sk-<key>, {address} → the server address,
 * {cherryConfig} → Cherry Studio's base64 provider config.
 */
export function fillChatLink(template: string, key: string, address: string, systemName: string): string {
  const fullKey = key ? `sk-${key}` : '';
  const cherryConfig = base64(JSON.stringify({ id: 'switchboard', baseUrl: address, apiKey: fullKey, name: systemName }));
  return template.replaceAll('{key}', fullKey).replaceAll('{address}', address).replaceAll('{cherryConfig}', encodeURIComponent(cherryConfig));
}

export function isWebLink(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
