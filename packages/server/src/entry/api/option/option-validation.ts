import {
  decimalText,
  isOptionKey,
  parseChannelRouting,
  routingStrategies,
  type OptionDefinition,
  optionDefinitions,
  type OptionKey,
  quotaDisplayTypes,
  wholeNumberText,
} from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';
import { isAddressEntry } from '../../../core/platform/outgoing/address-ranges.ts';
import { isDomainEntry } from '../../../core/platform/outgoing/domain-list.ts';
import { outgoingMessages } from '../../../core/platform/outgoing/outgoing.messages.ts';
import { isPortEntry } from '../../../core/platform/outgoing/port-ranges.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { assertSafeLinkOption } from './option-links.ts';
import { optionMessages } from './option.messages.ts';
import { assertConsoleSettingValue } from '../../../domain/options/console-settings-rules.ts';
import { readCacheRules } from '../../relay/response-cache/cache-rules.ts';
import { readFallbackMap } from '../../relay/fallbacks/model-fallbacks.ts';
import { responseCacheMessages } from '../../relay/response-cache/response-cache.messages.ts';

/** Reads the value a key holds now (to check what an enable switch depends on). */
export type CurrentValue = (key: OptionKey) => string;

/**
 * A login method or restriction cannot be switched on before the settings it needs are filled in
 * (otherwise the login page offers a button that can only fail).
 */
const requirements: Partial<Record<OptionKey, { needs: OptionKey[]; message: LocalizedMessage }>> = {
  GitHubOAuthEnabled: { needs: ['GitHubClientId', 'GitHubClientSecret'], message: optionMessages.gitHubNeedsConfig },
  LinuxDOOAuthEnabled: { needs: ['LinuxDOClientId', 'LinuxDOClientSecret'], message: optionMessages.linuxDoNeedsConfig },
  WeChatAuthEnabled: { needs: ['WeChatServerAddress', 'WeChatServerToken'], message: optionMessages.weChatNeedsConfig },
  TelegramOAuthEnabled: { needs: ['TelegramBotToken', 'TelegramBotName'], message: optionMessages.telegramNeedsConfig },
  TurnstileCheckEnabled: { needs: ['TurnstileSiteKey', 'TurnstileSecretKey'], message: optionMessages.turnstileNeedsConfig },
  EmailVerificationEnabled: { needs: ['SMTPServer'], message: optionMessages.emailVerificationNeedsConfig },
  EmailDomainRestrictionEnabled: { needs: ['EmailDomainWhitelist'], message: optionMessages.emailDomainNeedsConfig },
};

const choices: Partial<Record<OptionKey, readonly string[]>> = {
  DataExportDefaultTime: ['hour', 'day', 'week'],
  // WebAuthn's values, as new-api stores them ('' for the attachment: any authenticator).
  'passkey.user_verification': ['required', 'preferred', 'discouraged'],
  'passkey.attachment_preference': ['', 'platform', 'cross-platform'],
  'general_setting.quota_display_type': quotaDisplayTypes,
};
const maximums: Partial<Record<OptionKey, number>> = { SMTPPort: 65535 };

function fail(message: LocalizedMessage, params: Record<string, string | number>): never {
  throw new AppError(message, { params });
}

function checkJson(key: OptionKey, definition: OptionDefinition, value: string): void {
  const parsed = safeParseJson(value);
  if (!parsed.ok) fail(key === 'TopupGroupRatio' ? optionMessages.topupGroupRatioNotJson : optionMessages.notJson, { key });
  const json = parsed.value;
  const isObject = typeof json === 'object' && json !== null && !Array.isArray(json);
  switch (definition.jsonShape) {
    case 'array':
      if (!Array.isArray(json)) fail(optionMessages.wrongJsonShape, { key, shape: 'array' });
      return;
    case 'object':
      if (!isObject) fail(optionMessages.wrongJsonShape, { key, shape: 'object' });
      return;
    case 'number-map':
      if (!isObject || !Object.values(json).every((entry) => typeof entry === 'number' && Number.isFinite(entry) && entry >= 0)) {
        fail(optionMessages.wrongJsonShape, { key, shape: '{"name": number ≥ 0}' });
      }
      return;
    case 'string-map':
      if (!isObject || !Object.values(json).every((entry) => typeof entry === 'string'))
        fail(optionMessages.wrongJsonShape, { key, shape: '{"name": "text"}' });
      return;
    case 'amount-list':
      if (!Array.isArray(json) || !json.every(isPositiveWholeAmount)) fail(optionMessages.wrongJsonShape, { key, shape: '[whole number > 0]' });
      return;
    case 'amount-discounts':
      if (
        !isObject ||
        !Object.entries(json).every(([amount, factor]) => /^[1-9]\d*$/.test(amount) && isPositiveWholeAmount(Number(amount)) && isPriceFactor(factor))
      )
        fail(optionMessages.wrongJsonShape, { key, shape: '{"whole amount > 0": factor in (0, 1]}' });
      return;
    case 'port-list':
      checkEntries(key, json, isPortEntry, outgoingMessages.badPortEntry);
      return;
    case 'ip-list':
      checkEntries(key, json, isAddressEntry, outgoingMessages.badIpEntry);
      return;
    case 'domain-list':
      checkEntries(key, json, isDomainEntry, outgoingMessages.badDomainEntry);
      return;
    case 'response-cache-rules': {
      const read = readCacheRules(json);
      if (!read.ok) fail(read.message, read.params);
      return;
    }
    case 'model-fallbacks': {
      const read = readFallbackMap(json);
      if (!read.ok)
        fail(read.selfReference ? responseCacheMessages.fallbackToItself : responseCacheMessages.fallbacksBad, { key, model: read.selfReference ?? '' });
      return;
    }
    case 'rate-limit-groups':
      if (!isObject || !Object.values(json).every(isRateLimitPair)) fail(optionMessages.wrongJsonShape, { key, shape: '{"group": [total ≥ 0, success ≥ 1]}' });
      return;
    case 'channel-routing': {
      const routing = parseChannelRouting(json);
      if (!routing.ok) fail(optionMessages.routingStrategyInvalid, { key, fault: routing.fault, strategies: routingStrategies.join(', ') });
      return;
    }
    default:
      return;
  }
}

/** The fetch_setting lists: an array of text entries, each one the list's kind (named in the refusal). */
function checkEntries(key: OptionKey, json: unknown, isEntry: (entry: string) => boolean, message: LocalizedMessage): void {
  if (!Array.isArray(json)) fail(optionMessages.wrongJsonShape, { key, shape: '["…"]' });
  for (const entry of json) {
    const text = typeof entry === 'number' ? String(entry) : entry;
    if (typeof text !== 'string' || !isEntry(text)) fail(message, { entry: String(JSON.stringify(entry)).slice(0, 100) });
  }
}

/** new-api's check of `ModelRequestRateLimitGroup` entries: [total 0…2^31-1, success 1…2^31-1]. */
function isRateLimitPair(value: unknown): boolean {
  const inRange = (count: unknown, min: number) => typeof count === 'number' && Number.isSafeInteger(count) && count >= min && count <= 2_147_483_647;
  return Array.isArray(value) && value.length === 2 && inRange(value[0], 0) && inRange(value[1], 1);
}

function isPositiveWholeAmount(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** A discount may lower the price, never raise it or make it free. */
function isPriceFactor(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1;
}

function checkNumber(key: OptionKey, definition: OptionDefinition, value: string): void {
  const parsed = (definition.kind === 'integer' ? wholeNumberText : decimalText).safeParse(value);
  if (!parsed.success) fail(definition.kind === 'integer' ? optionMessages.notInteger : optionMessages.notNumber, { key });
  const number = parsed.data;
  if (definition.min !== undefined && number < definition.min) fail(optionMessages.belowMinimum, { key, min: definition.min });
  const max = maximums[key];
  if (max !== undefined && number > max) fail(optionMessages.aboveMaximum, { key, max });
}

/**
 * Checks one `PUT /api/option/` write against the key's definition and answers the value to store,
 * or undefined when nothing should be written (an empty secret: secrets are never shown, so an empty
 * field means "unchanged"). Throws the spec's message for every refusal.
 */
export function normaliseOptionWrite(key: string, rawValue: string, current: CurrentValue): string | undefined {
  if (!isOptionKey(key)) fail(optionMessages.unknownKey, { key });
  const definition: OptionDefinition = optionDefinitions[key];
  let value = definition.kind === 'json' ? rawValue : rawValue.trim();
  if (definition.secret && value === '') return undefined;
  switch (definition.kind) {
    case 'boolean':
      if (value !== 'true' && value !== 'false') fail(optionMessages.notBoolean, { key });
      break;
    case 'integer':
    case 'number':
      checkNumber(key, definition, value);
      break;
    case 'json':
      checkJson(key, definition, value);
      break;
    default:
      if (definition.trimTrailingSlash) value = value.replace(/\/+$/, '');
  }
  assertSafeLinkOption(key, value);
  assertConsoleSettingValue(key, value);
  const allowed = choices[key];
  if (allowed && !allowed.includes(value)) fail(optionMessages.notOneOf, { key, choices: allowed.join(', ') });
  const requirement = requirements[key];
  if (requirement && value === 'true' && requirement.needs.some((needed) => current(needed).trim() === '')) fail(requirement.message, {});
  return value;
}

/** Keys whose values are never sent back: secret definitions, and by name any unknown imported key. */
export function isSecretOptionKey(key: string): boolean {
  if (isOptionKey(key)) return optionDefinitions[key].secret === true;
  return /(Token|Secret|Key|secret|api_key)$/.test(key);
}
