import { Flex, Tooltip } from 'antd';

/**
 * new-api stores a vendor's icon as a @lobehub/icons key (`Claude.Color`, `Qwen.Color`). The console
 * carries no icon library, so each known key gets its brand colour behind the vendor's initial; an
 * unknown key or none gets a colour picked from the name, so the same vendor always looks the same.
 */
const brandColours: Readonly<Record<string, string>> = {
  openai: '#10a37f',
  claude: '#d97757',
  anthropic: '#d97757',
  gemini: '#4285f4',
  google: '#4285f4',
  deepseek: '#4d6bfe',
  qwen: '#615ced',
  zhipu: '#3859ff',
  wenxin: '#2932e1',
  moonshot: '#16191e',
  minimax: '#f23f5d',
  spark: '#0070f0',
  hunyuan: '#0053e0',
  cohere: '#39594d',
  cloudflare: '#f38020',
  jina: '#009191',
  mistral: '#fa520f',
  xai: '#000000',
  ollama: '#0668e1',
  doubao: '#1e37fc',
  yi: '#003425',
  kling: '#ff7a00',
  xiaomi: '#ff6900',
};
const palette = ['#1677ff', '#13c2c2', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#2f54eb', '#a0d911'];

function colourOf(icon: string, name: string): string {
  const key = icon.split('.')[0]?.toLowerCase() ?? '';
  const known = brandColours[key] ?? brandColours[name.toLowerCase()];
  if (known) return known;
  let hash = 0;
  for (const character of name) hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0;
  return palette[hash % palette.length] ?? '#1677ff';
}

/** A vendor's mark: its initial in a coloured circle. */
export function VendorMark({ name, icon = '', size = 20 }: { name: string; icon?: string; size?: number }) {
  const initial = [...name.trim()][0]?.toUpperCase() ?? '?';
  return (
    <Tooltip title={icon || undefined}>
      <span
        aria-hidden
        style={{
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          width: size,
          height: size,
          borderRadius: '50%',
          background: colourOf(icon, name),
          color: '#fff',
          fontSize: Math.round(size * 0.55),
          fontWeight: 600,
          flex: 'none',
        }}
      >
        {initial}
      </span>
    </Tooltip>
  );
}

/** The mark with the vendor's name beside it. */
export function VendorBadge({ name, icon = '' }: { name: string; icon?: string }) {
  return (
    <Flex gap={6} align="center" data-vendor={name}>
      <VendorMark name={name} icon={icon} />
      <span>{name}</span>
    </Flex>
  );
}
