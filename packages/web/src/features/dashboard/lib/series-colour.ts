/**
 * Twenty colours that stay apart on the light and the dark theme (ECharts' and antd's palettes,
 * the near-duplicates dropped).
 */
export const seriesPalette = [
  '#5470c6',
  '#91cc75',
  '#fac858',
  '#ee6666',
  '#73c0de',
  '#3ba272',
  '#fc8452',
  '#9a60b4',
  '#ea7ccc',
  '#1677ff',
  '#13c2c2',
  '#52c41a',
  '#faad14',
  '#eb2f96',
  '#722ed1',
  '#a0d911',
  '#fa541c',
  '#2f54eb',
  '#d4b106',
  '#08979c',
] as const;

/**
 * The colour of a series (a model or a user), the same in every chart and on every load: a hash of
 * its name (FNV-1a, 32 bits) picks the palette entry, so it never depends on a chart's series order.
 */
export function seriesColour(name: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index += 1) {
    hash ^= name.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return seriesPalette[hash % seriesPalette.length] ?? seriesPalette[0];
}
