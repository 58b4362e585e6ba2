import { Tag } from 'antd';

/** Group colours as new-api shows them: vip/pro yellow, svip/premium red, anything else neutral. */
export function groupColor(group: string): string | undefined {
  const name = group.toLowerCase();
  if (name === 'svip' || name === 'premium') return 'red';
  if (name === 'vip' || name === 'pro') return 'gold';
  return undefined;
}

export function GroupTag({ group }: { group: string }) {
  return <Tag color={groupColor(group)}>{group}</Tag>;
}
