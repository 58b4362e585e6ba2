import { createHash } from 'node:crypto';
import { startLocalServer } from '../../../../testing/local-http-server.ts';

/**
 * Epay's MD5 signature, written out separately from the server's so a test cannot agree with a bug.
 * Like a real gateway it signs raw values, whatever they contain (tests use it to forge ambiguous ones).
 */
export function signLikeEpayGateway(parameters: Record<string, string>, key: string): string {
  const names = Object.keys(parameters)
    .filter((name) => !['sign', 'sign_type'].includes(name) && parameters[name] !== '')
    .sort();
  return createHash('md5')
    .update(`${names.map((name) => `${name}=${parameters[name]}`).join('&')}${key}`)
    .digest('hex');
}

/**
 * A local Epay gateway for tests: `POST /submit.php` takes the form the console posts (refusing a bad
 * signature, as the real one does), and `notifyFor` produces the signed callback it would then send.
 */
export async function startFakeEpay(merchant: string, key: string) {
  const orders = new Map<string, Record<string, string>>();
  const server = await startLocalServer({
    'POST /submit.php': (request) => {
      const form = Object.fromEntries(new URLSearchParams(request.body));
      if (form.pid !== merchant || form.sign !== signLikeEpayGateway(form, key) || form.sign_type !== 'MD5') return { status: 400, text: 'sign error' };
      orders.set(form.out_trade_no ?? '', form);
      return { text: `pay ${form.money} for ${form.name}` };
    },
  });
  return {
    url: server.url,
    close: server.close,
    /** The callback for a paid order, as the query (or form) the gateway sends to notify_url. */
    notifyFor(tradeNo: string, overrides: Record<string, string> = {}): Record<string, string> {
      const order = orders.get(tradeNo);
      if (!order) throw new Error(`no such order ${tradeNo}`);
      const parameters: Record<string, string> = {
        pid: merchant,
        trade_no: `EP${Date.now()}`,
        out_trade_no: tradeNo,
        type: order.type ?? '',
        name: order.name ?? '',
        money: order.money ?? '',
        trade_status: 'TRADE_SUCCESS',
        ...overrides,
      };
      return { ...parameters, sign: signLikeEpayGateway(parameters, key), sign_type: 'MD5' };
    },
  };
}
