import { lookup as systemLookup } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionDefinitions, type OptionKey } from '@switchboard/contracts';
import { safeParseJson } from '../safe-json.ts';
import { readFetchSetting, type FetchSetting } from './fetch-setting.ts';
import { OutgoingRefused, outgoingRefusalOf } from './outgoing-refused.ts';
import { OutgoingRequests, type ResolveName } from './outgoing-requests.ts';

/** The fetch_setting defaults with some options changed, as the option store would give them. */
function settingWith(changes: Partial<Record<OptionKey, unknown>> = {}): FetchSetting {
  const value = (key: OptionKey): string => {
    const changed = changes[key];
    if (changed === undefined) return optionDefinitions[key].defaultValue;
    return typeof changed === 'string' ? changed : JSON.stringify(changed);
  };
  return readFetchSetting({
    getBoolean: (key) => value(key) === 'true',
    getJson: <T>(key: OptionKey) => (safeParseJson(value(key)) as { value: T }).value,
  });
}

/** Every port allowed, so the tests below are about addresses, not the default port list. */
const anyPort = { 'fetch_setting.allowed_ports': [] };

/** Names the test's resolver answers itself; the rest go to the system resolver (localhost. among them). */
const fakeNames: Record<string, string> = { 'rebinding.example': '127.0.0.1', 'metadata.example': '169.254.169.254', 'localhost.': '127.0.0.1' };
const resolveWithFakes: ResolveName = (hostname, options, callback) => {
  const address = fakeNames[hostname.toLowerCase()];
  if (address) callback(null, [{ address, family: 4 }]);
  else systemLookup(hostname, options, callback);
};

describe('outgoing requests under the fetch_setting policy', () => {
  /** Listens on every local address (IPv4 and IPv6): any loopback spelling that got through would land here. */
  let loopback: Server;
  let port: number;
  const hits: string[] = [];
  let redirectTarget = '';

  beforeAll(async () => {
    loopback = createServer((request, response) => {
      hits.push(request.url ?? '');
      if (request.url === '/redirect') {
        response.writeHead(302, { location: redirectTarget }).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('reached');
    });
    await new Promise<void>((resolve) => loopback.listen(0, '::', resolve));
    port = (loopback.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => loopback.close(() => resolve()));
  });

  async function attempt(setting: FetchSetting, url: string): Promise<{ refused: OutgoingRefused | undefined; status?: number; text?: string }> {
    const outgoing = new OutgoingRequests(() => setting, resolveWithFakes);
    try {
      const answer = await outgoing.open({ url, timeoutMs: 3000 });
      return { refused: undefined, status: answer.statusCode, text: await answer.body.text() };
    } catch (error) {
      const refused = outgoingRefusalOf(error);
      if (!refused) throw error;
      return { refused };
    } finally {
      await outgoing.close();
    }
  }

  const loopbackSpellings = [
    '127.0.0.1',
    '127.1',
    '2130706433',
    '0x7f000001',
    '0177.0.0.1',
    '[::1]',
    '[::ffff:127.0.0.1]',
    'localhost',
    'localhost.',
    '0.0.0.0',
  ];

  it.each(loopbackSpellings)('refuses the loopback spelling %s without connecting', async (host) => {
    hits.length = 0;
    const result = await attempt(settingWith(anyPort), `http://${host}:${port}/secret`);
    expect(result.refused?.localized.en).toMatch(/Private, loopback and reserved addresses/);
    expect(hits).toEqual([]);
  });

  it.each(['169.254.169.254', '10.0.0.1', '192.168.1.10', '172.16.0.1', '172.31.255.254', '100.64.0.1', '[fd00::1]', '[fe80::1]'])(
    'refuses the private or reserved address %s',
    async (host) => {
      const result = await attempt(settingWith(anyPort), `http://${host}/latest/meta-data/`);
      expect(result.refused?.localized).toBeDefined();
      expect(result.refused?.params).toEqual({ host: host.replace(/^\[|\]$/g, '') });
    },
  );

  it('refuses a name that resolves to loopback or to the metadata address, checking what the connection will use', async () => {
    hits.length = 0;
    for (const host of ['rebinding.example', 'metadata.example']) {
      const result = await attempt(settingWith(anyPort), `http://${host}:${port}/secret`);
      expect(result.refused?.params).toEqual({ host });
    }
    expect(hits).toEqual([]);
  });

  it('follows a redirect only to an allowed address, and refuses one to a private address', async () => {
    // The operator allowed exactly 127.0.0.1; the redirect leads to other loopback and metadata addresses.
    const allowOne = settingWith({ ...anyPort, 'fetch_setting.ip_filter_mode': true, 'fetch_setting.ip_list': ['127.0.0.1'] });
    for (const target of [
      `http://127.0.0.2:${port}/secret`,
      `http://[::1]:${port}/secret`,
      'http://169.254.169.254/latest/meta-data/',
      `http://metadata.example:${port}/secret`,
    ]) {
      hits.length = 0;
      redirectTarget = target;
      const result = await attempt(allowOne, `http://127.0.0.1:${port}/redirect`);
      expect(result.refused, target).toBeDefined();
      expect(hits).toEqual(['/redirect']);
    }
    hits.length = 0;
    redirectTarget = `http://127.0.0.1:${port}/landed`;
    expect(await attempt(allowOne, `http://127.0.0.1:${port}/redirect`)).toEqual({ refused: undefined, status: 200, text: 'reached' });
    expect(hits).toEqual(['/redirect', '/landed']);
  });

  it('stops after a bounded number of redirects', async () => {
    redirectTarget = `http://127.0.0.1:${port}/redirect`;
    const result = await attempt(settingWith({ ...anyPort, 'fetch_setting.allow_private_ip': true }), `http://127.0.0.1:${port}/redirect`);
    expect(result.refused?.localized.en).toMatch(/Too many redirects/);
  });

  it('lets an allow-list entry reach a local service, by address and by a name resolving to it', async () => {
    const allowLocal = settingWith({ ...anyPort, 'fetch_setting.ip_filter_mode': true, 'fetch_setting.ip_list': ['127.0.0.0/8'] });
    expect(await attempt(allowLocal, `http://127.0.0.1:${port}/hook`)).toMatchObject({ status: 200, text: 'reached' });
    // rebinding.example does not exist: reaching the service proves the connection used the checked address.
    expect(await attempt(allowLocal, `http://rebinding.example:${port}/hook`)).toMatchObject({ status: 200, text: 'reached' });
    // In allow-list mode everything else is refused, public or not.
    expect((await attempt(allowLocal, `http://[::1]:${port}/hook`)).refused).toBeDefined();
    expect((await attempt(allowLocal, 'http://93.184.216.34/')).refused?.localized.en).toMatch(/not on the IP allow list/);
  });

  it('reaches private addresses when allow_private_ip is on, and everything when the protection is off', async () => {
    expect(await attempt(settingWith({ ...anyPort, 'fetch_setting.allow_private_ip': true }), `http://localhost.:${port}/`)).toMatchObject({ status: 200 });
    expect(await attempt(settingWith({ 'fetch_setting.enable_ssrf_protection': false }), `http://127.1:${port}/`)).toMatchObject({ status: 200 });
  });

  it('refuses ports outside allowed_ports (80, 443, 8080, 8443 by default), other schemes and credentials', async () => {
    const open = settingWith({ 'fetch_setting.allow_private_ip': true });
    expect((await attempt(open, `http://127.0.0.1:${port}/`)).refused?.params).toEqual({ port });
    expect((await attempt(open, 'http://127.0.0.1:5432/')).refused?.params).toEqual({ port: 5432 });
    const ranges = settingWith({ 'fetch_setting.allow_private_ip': true, 'fetch_setting.allowed_ports': ['80', `${port - 1}-${port + 1}`] });
    expect(await attempt(ranges, `http://127.0.0.1:${port}/`)).toMatchObject({ status: 200 });
    for (const url of ['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'ftp://example.com/']) expect((await attempt(open, url)).refused, url).toBeDefined();
    expect((await attempt(open, 'http://user:pass@example.com/')).refused?.localized.en).toMatch(/user name or password/);
  });

  it('applies the domain allow and deny lists, wildcards included, whatever the case or trailing dot', async () => {
    const deny = settingWith({ 'fetch_setting.domain_list': ['*.internal.example', 'metadata.example'] });
    for (const host of ['a.internal.example', 'INTERNAL.example.', 'Metadata.Example.'])
      expect((await attempt(deny, `http://${host}/`)).refused?.localized.en).toMatch(/deny list/);
    const allow = settingWith({ 'fetch_setting.domain_filter_mode': true, 'fetch_setting.domain_list': ['hooks.example.com'] });
    expect((await attempt(allow, 'http://other.example.com/')).refused?.localized.en).toMatch(/not on the allow list/);
  });

  it('applies an IP deny list to names that resolve into it unless apply_ip_filter_for_domain is off', async () => {
    const base = { ...anyPort, 'fetch_setting.allow_private_ip': true, 'fetch_setting.ip_list': ['127.0.0.1'] };
    expect((await attempt(settingWith(base), `http://rebinding.example:${port}/`)).refused?.localized.en).toMatch(/IP deny list/);
    expect(await attempt(settingWith({ ...base, 'fetch_setting.apply_ip_filter_for_domain': false }), `http://rebinding.example:${port}/`)).toMatchObject({
      status: 200,
    });
  });
});
