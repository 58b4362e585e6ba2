import type { OptionKey } from '@switchboard/contracts';
import { addressList, type AddressList } from './address-ranges.ts';
import { portRanges, type PortRanges } from './port-ranges.ts';

/** new-api's fetch_setting, read once per change of its options. */
export interface FetchSetting {
  /** enable_ssrf_protection: off, every address is allowed (new-api's switch, on by default). */
  readonly enabled: boolean;
  /** allow_private_ip: loopback, private and reserved ranges allowed. */
  readonly allowPrivateIp: boolean;
  /** domain_filter_mode: true, domain_list is an allow list; false, a deny list. */
  readonly domainAllowList: boolean;
  readonly domains: readonly string[];
  /** ip_filter_mode: true, ip_list is an allow list; false, a deny list. */
  readonly ipAllowList: boolean;
  readonly addresses: AddressList;
  readonly ports: PortRanges;
  /** apply_ip_filter_for_domain: the IP list also judges the addresses a name resolves to. */
  readonly applyIpFilterForDomain: boolean;
}

export const fetchSettingKeys = [
  'fetch_setting.enable_ssrf_protection',
  'fetch_setting.allow_private_ip',
  'fetch_setting.domain_filter_mode',
  'fetch_setting.ip_filter_mode',
  'fetch_setting.domain_list',
  'fetch_setting.ip_list',
  'fetch_setting.allowed_ports',
  'fetch_setting.apply_ip_filter_for_domain',
] as const satisfies readonly OptionKey[];

/** What the reader needs of the option store (a plain map in unit tests). */
export interface FetchSettingSource {
  getBoolean(key: OptionKey): boolean;
  getJson<T>(key: OptionKey): T;
}

/** A list option's entries; numbers count as their text (a port list may be written [80, 443]). */
function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.filter((entry) => typeof entry === 'string' || typeof entry === 'number').map(String);
}

export function readFetchSetting(options: FetchSettingSource): FetchSetting {
  return {
    enabled: options.getBoolean('fetch_setting.enable_ssrf_protection'),
    allowPrivateIp: options.getBoolean('fetch_setting.allow_private_ip'),
    domainAllowList: options.getBoolean('fetch_setting.domain_filter_mode'),
    domains: strings(options.getJson('fetch_setting.domain_list')),
    ipAllowList: options.getBoolean('fetch_setting.ip_filter_mode'),
    addresses: addressList(strings(options.getJson('fetch_setting.ip_list'))),
    ports: portRanges(strings(options.getJson('fetch_setting.allowed_ports'))),
    applyIpFilterForDomain: options.getBoolean('fetch_setting.apply_ip_filter_for_domain'),
  };
}
