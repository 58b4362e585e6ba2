import type { LocalizedMessage } from '../../messages/catalogue.ts';

/** Why the outgoing-request policy (new-api's fetch_setting) refused an address. */
export const outgoingMessages = {
  invalidUrl: { zh: '地址不合法：{url}', en: 'Not a valid address: {url}' },
  schemeNotAllowed: { zh: '只允许 http 和 https 地址，不允许 {scheme}', en: 'Only http and https addresses are allowed, not {scheme}' },
  credentialsInUrl: { zh: '地址中不能包含用户名或密码', en: 'The address must not contain a user name or password' },
  portNotAllowed: { zh: '不允许访问端口 {port}', en: 'Port {port} is not allowed' },
  domainNotInAllowList: { zh: '域名 {host} 不在允许列表中', en: 'The domain {host} is not on the allow list' },
  domainInDenyList: { zh: '域名 {host} 在禁止列表中', en: 'The domain {host} is on the deny list' },
  privateAddress: { zh: '不允许访问内网、本机或保留地址：{host}', en: 'Private, loopback and reserved addresses are not allowed: {host}' },
  ipNotInAllowList: { zh: '地址 {host} 不在允许的 IP 列表中', en: 'The address {host} is not on the IP allow list' },
  ipInDenyList: { zh: '地址 {host} 在禁止的 IP 列表中', en: 'The address {host} is on the IP deny list' },
  tooManyRedirects: { zh: '重定向次数过多（最多 {max} 次）', en: 'Too many redirects (at most {max})' },
  badPortEntry: { zh: '端口设置不正确：{entry}（示例：80、8000-9000）', en: 'Bad port entry: {entry} (for example 80 or 8000-9000)' },
  badIpEntry: {
    zh: 'IP 设置不正确：{entry}（示例：10.0.0.1、10.0.0.0/8、fd00::/8）',
    en: 'Bad IP entry: {entry} (for example 10.0.0.1, 10.0.0.0/8, fd00::/8)',
  },
  badDomainEntry: {
    zh: '域名设置不正确：{entry}（示例：example.com、*.example.com）',
    en: 'Bad domain entry: {entry} (for example example.com or *.example.com)',
  },
} as const satisfies Record<string, LocalizedMessage>;
