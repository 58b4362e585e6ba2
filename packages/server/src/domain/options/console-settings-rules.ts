import { announcementTypes, apiInfoColors, type OptionKey } from '@switchboard/contracts';
import { AppError } from '../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../core/messages/catalogue.ts';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import { consoleSettingMessages as m } from './console-settings.messages.ts';

type Item = Record<string, unknown>;

/** new-api's address check for these lists: http(s), a host name or dotted IPv4, an optional port and path. */
const httpAddress =
  /^https?:\/\/(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?|(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?))(?::[0-9]{1,5})?(?:\/.*)?$/;
/** Text shown on every user's dashboard must not carry script: new-api refuses these fragments (any case). */
const unsafeFragments = ['<script', '<iframe', 'javascript:', 'onload=', 'onerror=', 'onclick='];
const slugPattern = /^[a-zA-Z0-9_-]+$/;
/** Go's time.RFC3339 layout (fractional seconds allowed, as its parser accepts them). */
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

function refuse(message: LocalizedMessage, n?: number, detail?: string): never {
  throw new AppError(message, { params: { ...(n === undefined ? {} : { n }), ...(detail === undefined ? {} : { detail }) } });
}

/** Length in characters (runes), as new-api counts, not UTF-16 units. */
const length = (text: string) => [...text].length;
const nonEmptyText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isUnsafe = (text: string) => unsafeFragments.some((fragment) => text.toLowerCase().includes(fragment));

export function isRfc3339(value: string): boolean {
  return rfc3339.test(value) && !Number.isNaN(Date.parse(value));
}

/** A JSON array of objects (a `null` entry reads as an empty object, as Go decodes it). */
function parseItems(text: string, notList: LocalizedMessage): Item[] {
  const parsed = safeParseJson(text);
  if (!parsed.ok) refuse(notList, undefined, parsed.error);
  if (parsed.value === null) return [];
  if (!Array.isArray(parsed.value)) refuse(notList, undefined, 'not an array');
  return parsed.value.map((entry: unknown, index) => {
    if (entry === null) return {};
    if (typeof entry !== 'object' || Array.isArray(entry)) refuse(notList, undefined, `item ${index + 1} is not an object`);
    return entry as Item;
  });
}

function checkApiInfo(text: string): void {
  const items = parseItems(text, m.apiInfoNotList);
  if (items.length > 50) refuse(m.apiInfoTooMany);
  items.forEach((item, index) => {
    const n = index + 1;
    const { url, route, description, color } = item;
    if (!nonEmptyText(url)) refuse(m.apiInfoNoUrl, n);
    if (!nonEmptyText(route)) refuse(m.apiInfoNoRoute, n);
    if (!nonEmptyText(description)) refuse(m.apiInfoNoDescription, n);
    if (!nonEmptyText(color)) refuse(m.apiInfoNoColor, n);
    if (!httpAddress.test(url)) refuse(m.apiInfoBadUrl, n);
    if (length(url) > 500) refuse(m.apiInfoUrlTooLong, n);
    if (length(route) > 100) refuse(m.apiInfoRouteTooLong, n);
    if (length(description) > 200) refuse(m.apiInfoDescriptionTooLong, n);
    if (!(apiInfoColors as readonly string[]).includes(color)) refuse(m.apiInfoBadColor, n);
    if (isUnsafe(description) || isUnsafe(route)) refuse(m.apiInfoUnsafe, n);
  });
}

function checkAnnouncements(text: string): void {
  const items = parseItems(text, m.announcementsNotList);
  if (items.length > 100) refuse(m.announcementsTooMany);
  items.forEach((item, index) => {
    const n = index + 1;
    const { content, publishDate, type, extra } = item;
    if (!nonEmptyText(content)) refuse(m.announcementNoContent, n);
    if (!('publishDate' in item)) refuse(m.announcementNoDate, n);
    if (!nonEmptyText(publishDate)) refuse(m.announcementEmptyDate, n);
    if (!isRfc3339(publishDate)) refuse(m.announcementBadDate, n);
    // new-api checks the type only when it is text; another JSON value is let through.
    if (typeof type === 'string' && !(announcementTypes as readonly string[]).includes(type)) refuse(m.announcementBadType, n);
    if (length(content) > 500) refuse(m.announcementTooLong, n);
    if (typeof extra === 'string' && length(extra) > 200) refuse(m.announcementExtraTooLong, n);
  });
}

function checkFaq(text: string): void {
  const items = parseItems(text, m.faqNotList);
  if (items.length > 100) refuse(m.faqTooMany);
  items.forEach((item, index) => {
    const n = index + 1;
    const { question, answer } = item;
    if (!nonEmptyText(question)) refuse(m.faqNoQuestion, n);
    if (!nonEmptyText(answer)) refuse(m.faqNoAnswer, n);
    if (length(question) > 200) refuse(m.faqQuestionTooLong, n);
    if (length(answer) > 1000) refuse(m.faqAnswerTooLong, n);
  });
}

function checkUptimeKumaGroups(text: string): void {
  const items = parseItems(text, m.uptimeNotList);
  if (items.length > 20) refuse(m.uptimeTooMany);
  const names = new Set<string>();
  items.forEach((item, index) => {
    const n = index + 1;
    const { categoryName, url, slug } = item;
    if (!nonEmptyText(categoryName)) refuse(m.uptimeNoCategory, n);
    if (names.has(categoryName)) refuse(m.uptimeDuplicateCategory, n);
    names.add(categoryName);
    if (!nonEmptyText(url)) refuse(m.uptimeNoUrl, n);
    if (!nonEmptyText(slug)) refuse(m.uptimeNoSlug, n);
    const description = typeof item.description === 'string' ? item.description : '';
    if (!httpAddress.test(url)) refuse(m.uptimeBadUrl, n);
    if (length(categoryName) > 50) refuse(m.uptimeCategoryTooLong, n);
    if (length(url) > 500) refuse(m.uptimeUrlTooLong, n);
    if (length(slug) > 100) refuse(m.uptimeSlugTooLong, n);
    if (length(description) > 200) refuse(m.uptimeDescriptionTooLong, n);
    if (!slugPattern.test(slug)) refuse(m.uptimeBadSlug, n);
    if (isUnsafe(description) || isUnsafe(categoryName)) refuse(m.uptimeUnsafe, n);
  });
}

const rules: Partial<Record<OptionKey, (text: string) => void>> = {
  'console_setting.api_info': checkApiInfo,
  'console_setting.announcements': checkAnnouncements,
  'console_setting.faq': checkFaq,
  'console_setting.uptime_kuma_groups': checkUptimeKumaGroups,
};

/**
 * Checks a write of one of new-api's dashboard lists as new-api does (an empty value clears the
 * panel); throws its refusal. Other keys pass.
 */
export function assertConsoleSettingValue(key: OptionKey, value: string): void {
  if (value === '') return;
  rules[key]?.(value);
}
