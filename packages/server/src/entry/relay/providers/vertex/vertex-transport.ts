import { Readable } from 'node:stream';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { parseServiceAccount, ServiceAccountTokens, TokenExchangeError } from './service-account-token.ts';

function googleError(status: number, message: string): UpstreamResponse {
  const body = { error: { code: status, message, status: status === 401 ? 'UNAUTHENTICATED' : 'UNAVAILABLE' } };
  return { statusCode: status, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

/**
 * Plain HTTP with a bearer token obtained from the channel's service-account key. A key that is not
 * a service account, or that Google refuses, answers as a 401 so the channel can be auto-disabled.
 */
export function createVertexTransport(tokens: ServiceAccountTokens = new ServiceAccountTokens()): Transport {
  return {
    async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
      const account = parseServiceAccount(options.target.key);
      if (!account) return googleError(401, 'the channel key is not a service account JSON (project_id, client_email, private_key)');
      let token: string;
      try {
        token = await tokens.accessToken(account, options.signal);
      } catch (error) {
        if (error instanceof TokenExchangeError) return googleError(error.status >= 500 ? 502 : 401, error.message);
        throw error;
      }
      return httpTransport.send({ ...request, headers: { ...request.headers, authorization: `Bearer ${token}` } }, options);
    },
  };
}
