import { lookup as systemLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { Agent, type Dispatcher, request } from 'undici';
import type { FetchSetting } from './fetch-setting.ts';
import { outgoingMessages } from './outgoing.messages.ts';
import { checkAddress, checkUrl } from './outgoing-policy.ts';
import { OutgoingRefused } from './outgoing-refused.ts';

/** Name resolution as node:dns's `lookup` with `all: true` (tests inject their own). */
export type ResolveName = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export interface OutgoingRequest {
  readonly url: string;
  readonly method?: 'GET' | 'POST' | 'PUT';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Bounds the whole call: every redirect, the headers and each body chunk. */
  readonly timeoutMs: number;
}

export interface OutgoingAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Dispatcher.ResponseData['body'];
  /** The address that answered, after redirects. */
  readonly url: string;
}

/** new-api follows ten; a webhook or an image needs one or two. */
export const maxRedirects = 5;

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const originBoundHeaders = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Every request the server sends to an address a user or an administrator typed (webhooks, the
 * WeChat server, images a task answer points to) goes through here, under new-api's fetch_setting
 * policy. The URL is checked before each hop, redirects are followed by hand (bounded, each target
 * checked again), and a name is resolved by the connection itself through `checkedLookup`: the
 * socket connects to exactly the addresses that were checked, so a name cannot answer a public
 * address to the check and a private one to the connection.
 *
 * Not for the relay: channel base URLs are the operator's deployment targets (new-api does not
 * check them either) and the relay's hot path does no resolution of its own.
 */
export class OutgoingRequests {
  private readonly setting: () => FetchSetting;
  private readonly resolve: ResolveName;
  private agent: Agent | undefined;

  constructor(setting: () => FetchSetting, resolve: ResolveName = systemLookup) {
    this.setting = setting;
    this.resolve = resolve;
  }

  /** Checks what can be checked without resolving (for a setting being saved); throws OutgoingRefused. */
  assertAllowed(url: string): void {
    checkUrl(url, this.setting());
  }

  /** Sends the request; the caller reads or discards the body. Throws OutgoingRefused or the network error. */
  async open(outgoing: OutgoingRequest): Promise<OutgoingAnswer> {
    const signal = AbortSignal.timeout(outgoing.timeoutMs);
    let method = outgoing.method ?? 'GET';
    let body = outgoing.body;
    let headers = { ...outgoing.headers };
    let url = checkUrl(outgoing.url, this.setting());
    for (let hop = 0; ; hop += 1) {
      const response = await request(url, {
        method,
        headers,
        body,
        dispatcher: this.currentAgent(),
        signal,
        headersTimeout: outgoing.timeoutMs,
        bodyTimeout: outgoing.timeoutMs,
      });
      const location = response.headers.location;
      if (!redirectStatuses.has(response.statusCode) || typeof location !== 'string') {
        return { statusCode: response.statusCode, headers: response.headers, body: response.body, url: url.href };
      }
      response.body.resume();
      if (hop >= maxRedirects) throw new OutgoingRefused(outgoingMessages.tooManyRedirects, { max: maxRedirects });
      const next = checkUrl(new URL(location, url).href, this.setting());
      if (next.origin !== url.origin) headers = withoutHeaders(headers, originBoundHeaders);
      // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
      if (response.statusCode === 303 || (method === 'POST' && response.statusCode <= 302)) {
        method = 'GET';
        body = undefined;
        headers = withoutHeaders(headers, ['content-type', 'content-length']);
      }
      url = next;
    }
  }

  /** Called when fetch_setting changes: connections opened under the old rules are not reused. */
  renew(): void {
    const previous = this.agent;
    this.agent = undefined;
    void previous?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.agent?.close();
    this.agent = undefined;
  }

  private currentAgent(): Agent {
    this.agent ??= new Agent({ connect: { lookup: this.checkedLookup }, keepAliveTimeout: 4_000 });
    return this.agent;
  }

  /**
   * The socket's own name resolution: every address the name resolves to is checked (one refused
   * address refuses the name, as in new-api), and the socket gets only those checked addresses.
   */
  private readonly checkedLookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const setting = this.setting();
    const family = options.family === 'IPv4' || options.family === 4 ? 4 : options.family === 'IPv6' || options.family === 6 ? 6 : 0;
    this.resolve(hostname, { all: true, family }, (error, addresses) => {
      if (error) return callback(error, []);
      try {
        if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        for (const { address } of addresses) checkAddress(hostname, address, setting, false);
      } catch (refusal) {
        return callback(refusal as Error, []);
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function withoutHeaders(headers: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}
