import type { LocalizedMessage } from '../../core/messages/catalogue.ts';

/**
 * new-api's refusals of the dashboard panel lists (its `console_setting` validation), word for word in
 * Chinese; `{n}` is the 1-based position of the offending item.
 */
export const consoleSettingMessages = {
  apiInfoNotList: { zh: 'API信息格式错误：{detail}', en: 'The API addresses are not a JSON list: {detail}' },
  apiInfoTooMany: { zh: 'API信息数量不能超过50个', en: 'At most 50 API addresses' },
  apiInfoNoUrl: { zh: '第{n}个API信息缺少URL字段', en: 'API address {n} has no url' },
  apiInfoNoRoute: { zh: '第{n}个API信息缺少线路描述字段', en: 'API address {n} has no route' },
  apiInfoNoDescription: { zh: '第{n}个API信息缺少说明字段', en: 'API address {n} has no description' },
  apiInfoNoColor: { zh: '第{n}个API信息缺少颜色字段', en: 'API address {n} has no color' },
  apiInfoBadUrl: { zh: '第{n}个API信息的URL格式不正确', en: 'The url of API address {n} is not an http(s) address' },
  apiInfoUrlTooLong: { zh: '第{n}个API信息的URL长度不能超过500字符', en: 'The url of API address {n} is longer than 500 characters' },
  apiInfoRouteTooLong: { zh: '第{n}个API信息的线路描述长度不能超过100字符', en: 'The route of API address {n} is longer than 100 characters' },
  apiInfoDescriptionTooLong: {
    zh: '第{n}个API信息的说明长度不能超过200字符',
    en: 'The description of API address {n} is longer than 200 characters',
  },
  apiInfoBadColor: { zh: '第{n}个API信息的颜色值不合法', en: 'The color of API address {n} is not one of the offered colors' },
  apiInfoUnsafe: { zh: '第{n}个API信息包含不允许的内容', en: 'API address {n} contains markup that is not allowed' },

  announcementsNotList: { zh: '系统公告格式错误：{detail}', en: 'The announcements are not a JSON list: {detail}' },
  announcementsTooMany: { zh: '系统公告数量不能超过100个', en: 'At most 100 announcements' },
  announcementNoContent: { zh: '第{n}个公告缺少内容字段', en: 'Announcement {n} has no content' },
  announcementNoDate: { zh: '第{n}个公告缺少发布日期字段', en: 'Announcement {n} has no publishDate' },
  announcementEmptyDate: { zh: '第{n}个公告的发布日期不能为空', en: 'The publishDate of announcement {n} is empty' },
  announcementBadDate: { zh: '第{n}个公告的发布日期格式错误', en: 'The publishDate of announcement {n} is not an RFC 3339 time' },
  announcementBadType: { zh: '第{n}个公告的类型值不合法', en: 'The type of announcement {n} must be default, ongoing, success, warning or error' },
  announcementTooLong: { zh: '第{n}个公告的内容长度不能超过500字符', en: 'The content of announcement {n} is longer than 500 characters' },
  announcementExtraTooLong: { zh: '第{n}个公告的说明长度不能超过200字符', en: 'The note of announcement {n} is longer than 200 characters' },

  faqNotList: { zh: 'FAQ信息格式错误：{detail}', en: 'The FAQ is not a JSON list: {detail}' },
  faqTooMany: { zh: 'FAQ数量不能超过100个', en: 'At most 100 FAQ entries' },
  faqNoQuestion: { zh: '第{n}个FAQ缺少问题字段', en: 'FAQ entry {n} has no question' },
  faqNoAnswer: { zh: '第{n}个FAQ缺少答案字段', en: 'FAQ entry {n} has no answer' },
  faqQuestionTooLong: { zh: '第{n}个FAQ的问题长度不能超过200字符', en: 'The question of FAQ entry {n} is longer than 200 characters' },
  faqAnswerTooLong: { zh: '第{n}个FAQ的答案长度不能超过1000字符', en: 'The answer of FAQ entry {n} is longer than 1000 characters' },

  uptimeNotList: { zh: 'Uptime Kuma分组配置格式错误：{detail}', en: 'The Uptime Kuma groups are not a JSON list: {detail}' },
  uptimeTooMany: { zh: 'Uptime Kuma分组数量不能超过20个', en: 'At most 20 Uptime Kuma groups' },
  uptimeNoCategory: { zh: '第{n}个分组缺少分类名称字段', en: 'Group {n} has no categoryName' },
  uptimeDuplicateCategory: { zh: '第{n}个分组的分类名称与其他分组重复', en: 'The categoryName of group {n} is used by another group' },
  uptimeNoUrl: { zh: '第{n}个分组缺少URL字段', en: 'Group {n} has no url' },
  uptimeNoSlug: { zh: '第{n}个分组缺少Slug字段', en: 'Group {n} has no slug' },
  uptimeBadUrl: { zh: '第{n}个分组的URL格式不正确', en: 'The url of group {n} is not an http(s) address' },
  uptimeCategoryTooLong: { zh: '第{n}个分组的分类名称长度不能超过50字符', en: 'The categoryName of group {n} is longer than 50 characters' },
  uptimeUrlTooLong: { zh: '第{n}个分组的URL长度不能超过500字符', en: 'The url of group {n} is longer than 500 characters' },
  uptimeSlugTooLong: { zh: '第{n}个分组的Slug长度不能超过100字符', en: 'The slug of group {n} is longer than 100 characters' },
  uptimeDescriptionTooLong: { zh: '第{n}个分组的描述长度不能超过200字符', en: 'The description of group {n} is longer than 200 characters' },
  uptimeBadSlug: {
    zh: '第{n}个分组的Slug只能包含字母、数字、下划线和连字符',
    en: 'The slug of group {n} may only contain letters, digits, underscores and hyphens',
  },
  uptimeUnsafe: { zh: '第{n}个分组包含不允许的内容', en: 'Group {n} contains markup that is not allowed' },
} as const satisfies Record<string, LocalizedMessage>;
