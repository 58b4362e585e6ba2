/** Headers every relay answer carries, also on streams that bypass Fastify's reply. */
export function relayHeaders(requestId: string): Record<string, string> {
  return { 'x-oneapi-request-id': requestId, 'access-control-allow-origin': '*' };
}
