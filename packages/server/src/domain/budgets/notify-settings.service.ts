import { Role, notifyTypes, type NotifySettingsRequest, type NotifyType } from '@switchboard/contracts';
import { z } from 'zod';
import { AppError } from '../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../core/messages/catalogue.ts';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import { changeTopics } from '../../core/platform/change-topics.ts';
import type { OutgoingRequests } from '../../core/platform/outgoing/outgoing-requests.ts';
import { budgetMessages } from './budget.messages.ts';
import type { BudgetRepository } from './budget.repository.ts';
import { notifySettingsMessages as messages } from './notify-settings.messages.ts';
import { userSettingObject } from '../auth/user-setting-object.ts';

const emailSchema = z.email();

/** Gotify's priorities run 0–10; new-api stores 5 for one outside. */
const gotifyPriorityRange = { min: 0, max: 10, fallback: 5 };

function isNotifyType(value: string): value is NotifyType {
  return (notifyTypes as readonly string[]).includes(value);
}

/**
 * The personal notification settings of new-api's console (`PUT /api/user/setting`), stored in
 * users.setting under new-api's names beside the fields our alerts already read there
 * (quota_warning_threshold, webhook_url, webhook_secret), every other field kept. Checked in
 * new-api's order with its messages; every address a user gives is also judged by the
 * outgoing-request policy, since alerts are posted to it. A refusal changes nothing.
 */
export class NotifySettingsService {
  private readonly deps: {
    readonly repository: Pick<BudgetRepository, 'userDisplay' | 'saveUserSetting'>;
    readonly bus: ChangeBus;
    readonly outgoing: Pick<OutgoingRequests, 'assertAllowed'>;
  };

  constructor(deps: NotifySettingsService['deps']) {
    this.deps = deps;
  }

  async save(userId: number, input: NotifySettingsRequest): Promise<void> {
    const type = input.notify_type;
    if (!isNotifyType(type)) throw new AppError(messages.invalidType);
    if (!(input.quota_warning_threshold > 0)) throw new AppError(messages.thresholdAboveZero);
    if (type === 'webhook') this.assertAddress(input.webhook_url, messages.webhookEmpty, messages.webhookInvalid);
    if (type === 'email' && input.notification_email && !emailSchema.safeParse(input.notification_email).success) throw new AppError(messages.emailInvalid);
    if (type === 'bark') this.assertAddress(input.bark_url, messages.barkUrlEmpty, messages.barkUrlInvalid);

    const row = await this.deps.repository.userDisplay(userId);
    if (!row) throw new AppError(budgetMessages.userNotFound, { status: 404 });
    const setting = userSettingObject(row.setting);
    // The token is never sent back (GET /api/user/self hides it), so an empty one keeps the stored one.
    const gotifyToken = input.gotify_token || (typeof setting.gotify_token === 'string' ? setting.gotify_token : '');
    if (type === 'gotify') {
      if (!input.gotify_url) throw new AppError(messages.gotifyUrlEmpty);
      if (!gotifyToken) throw new AppError(messages.gotifyTokenEmpty);
      this.assertAddress(input.gotify_url, messages.gotifyUrlEmpty, messages.gotifyUrlInvalid);
    }

    for (const field of ['webhook_url', 'notification_email', 'bark_url', 'gotify_url', 'gotify_token'] as const) delete setting[field];
    setting.notify_type = type;
    setting.quota_warning_threshold = input.quota_warning_threshold;
    setting.gotify_priority = 0;
    if (type === 'webhook') {
      setting.webhook_url = input.webhook_url;
      // As in new-api: an empty secret keeps the stored one (the console never receives it back).
      if (input.webhook_secret) setting.webhook_secret = input.webhook_secret;
    }
    if (type === 'email' && input.notification_email) setting.notification_email = input.notification_email;
    if (type === 'bark') setting.bark_url = input.bark_url;
    if (type === 'gotify') {
      setting.gotify_url = input.gotify_url;
      setting.gotify_token = gotifyToken;
      const { min, max, fallback } = gotifyPriorityRange;
      setting.gotify_priority = input.gotify_priority < min || input.gotify_priority > max ? fallback : input.gotify_priority;
    }
    if (row.role >= Role.admin && input.upstream_model_update_notify_enabled != null)
      setFlag(setting, 'upstream_model_update_notify_enabled', input.upstream_model_update_notify_enabled);
    setFlag(setting, 'accept_unset_model_ratio_model', input.accept_unset_model_ratio_model);
    setFlag(setting, 'record_ip_log', input.record_ip_log);

    await this.deps.repository.saveUserSetting(userId, JSON.stringify(setting));
    // The relay's user cache (accept_unset_model_ratio_model) and the alert book (threshold) reload the user.
    await this.deps.bus.publish(changeTopics.users, String(userId));
  }

  /** A required http(s) address the outgoing-request policy allows; new-api's messages for the first two. */
  private assertAddress(address: string, empty: LocalizedMessage, invalid: LocalizedMessage): void {
    if (!address) throw new AppError(empty);
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new AppError(invalid);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError(messages.urlMustBeHttp);
    this.deps.outgoing.assertAllowed(address);
  }
}

/** new-api writes these flags with omitempty: a false one is absent. */
function setFlag(setting: Record<string, unknown>, field: string, on: boolean): void {
  if (on) setting[field] = true;
  else delete setting[field];
}
