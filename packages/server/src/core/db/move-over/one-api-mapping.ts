import { safeParseJson } from '../../platform/safe-json.ts';
import { oneApiChannelTypes, otherFromOneApiConfig } from './one-api-channel-types.ts';

export interface OneApiChannel {
  readonly id: number;
  readonly name: string;
  readonly type: number;
  readonly base_url: string | null;
  readonly other: string | null;
  readonly config: string | null;
  readonly status: number;
}

export interface MappedChannel {
  readonly type: number;
  readonly base_url: string | null;
  readonly other: string | null;
  readonly status: number;
}

/** What the console's notice and the log line say about one channel. */
export interface ChannelMappingNote {
  readonly id: number;
  readonly name: string;
  readonly vendor: string;
  readonly from: number;
  readonly to: number;
  readonly disabled: boolean;
}

const manuallyDisabled = 2;

function configText(config: string | null, field: string): string {
  const parsed = safeParseJson(config || '{}');
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return '';
  const value: unknown = (parsed.value as Record<string, unknown>)[field];
  return typeof value === 'string' ? value : '';
}

/**
 * The channel as Switchboard must store it to mean what it meant in one-api, or undefined when it
 * already does. Only empty fields are filled (a base URL or `other` the administrator set stays).
 */
export function mapOneApiChannel(channel: OneApiChannel): MappedChannel | undefined {
  const known = oneApiChannelTypes[channel.type];
  const type = known?.type ?? channel.type;
  const baseUrl = !channel.base_url && known?.baseUrl ? known.baseUrl : channel.base_url;
  const configField = otherFromOneApiConfig[type];
  const configValue = configField ? configText(channel.config, configField) : '';
  const other = !channel.other && configValue !== '' ? configValue : channel.other;
  const status = known?.unsupported && channel.status === 1 ? manuallyDisabled : channel.status;
  if (type === channel.type && baseUrl === channel.base_url && other === channel.other && status === channel.status) return undefined;
  return { type, base_url: baseUrl, other, status };
}

export function mappingNote(channel: OneApiChannel, mapped: MappedChannel): ChannelMappingNote {
  const known = oneApiChannelTypes[channel.type];
  return {
    id: channel.id,
    name: channel.name,
    vendor: known?.vendor ?? '',
    from: channel.type,
    to: mapped.type,
    disabled: mapped.status !== channel.status,
  };
}

/** one-api's subnet list is comma-separated; new-api's allow_ips takes one address or CIDR a line. */
export function allowIpsFromSubnet(subnet: string): string {
  return subnet
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .join('\n');
}
