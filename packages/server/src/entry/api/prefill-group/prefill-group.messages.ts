import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** new-api's own words for its prefill group refusals. */
export const prefillGroupMessages = {
  nameAndTypeRequired: { zh: '组名称和类型不能为空', en: 'The group name and type must not be empty' },
  nameTaken: { zh: '组名称已存在', en: 'A group with this name already exists' },
  notFound: { zh: '预填组不存在', en: 'Prefill group not found' },
} satisfies Record<string, LocalizedMessage>;
