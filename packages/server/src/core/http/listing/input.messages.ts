import type { LocalizedMessage } from '../../messages/catalogue.ts';

/** What the one input parser answers (always HTTP 400) for a request it refuses. */
export const inputMessages = {
  invalidField: { zh: '无效的参数：{field}', en: 'Invalid parameter: {field}' },
  controlCharacters: { zh: '{field} 不能包含控制字符', en: '{field} must not contain control characters' },
  nulCharacter: { zh: '{field} 不能包含 NUL 字符（U+0000）', en: '{field} must not contain the NUL character (U+0000)' },
  invalidPage: { zh: '页码 {field} 无效：须为不大于 {max} 的整数', en: 'Invalid page {field}: it must be a whole number no greater than {max}' },
  invalidPageSize: { zh: '每页条数 {field} 无效：须为整数', en: 'Invalid page size {field}: it must be a whole number' },
} satisfies Record<string, LocalizedMessage>;
