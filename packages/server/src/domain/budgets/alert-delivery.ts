import { createHmac } from 'node:crypto';
import type { OptionStore } from '../options/option-store.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { MailMessage } from '../../core/platform/mailer.ts';
import type { OutgoingRequests } from '../../core/platform/outgoing/outgoing-requests.ts';
import { readAlertSettings } from './budget-book.ts';
import type { BudgetRepository } from './budget.repository.ts';

/** One alert, ready to mail and to post. */
export interface AlertNotice {
  /** `quota_low` (balance under the threshold) or `budget_threshold` (50/80/100 % of a budget). */
  readonly type: 'quota_low' | 'budget_threshold';
  readonly subject: string;
  /** The mail body (HTML, every inserted value escaped) and the same in plain text for the webhook. */
  readonly html: string;
  readonly text: string;
  /** The figures behind it, for a webhook receiver that acts on them. */
  readonly values: Record<string, string | number>;
}

/** A webhook that does not answer within this time is given up (it is only a notice). */
const webhookTimeoutMs = 5000;

/**
 * Sends an alert to a user: by mail when SMTP is configured and the user has an address (the
 * notification e-mail of their personal settings, else the account's), and to the
 * user's webhook (users.setting.webhook_url) when set. The webhook gets new-api's payload shape
 * (type, title, content, values, timestamp); with a webhook secret the body is signed
 * (X-Webhook-Signature: hex HMAC-SHA256), the secret itself never leaves. The address is the user's
 * choice, so the post goes through the outgoing-request policy (no private addresses, redirects
 * checked hop by hop). Failures are logged, not retried: the alert state already says "sent", so a
 * broken receiver cannot cause a flood.
 */
export class AlertDelivery {
  private readonly deps: {
    readonly repository: BudgetRepository;
    readonly mailer: { send(message: MailMessage): Promise<void> };
    readonly options: OptionStore;
    readonly clock: Clock;
    readonly logger: Logger;
    readonly outgoing: OutgoingRequests;
  };

  constructor(deps: AlertDelivery['deps']) {
    this.deps = deps;
  }

  async deliver(userId: number, notice: AlertNotice): Promise<void> {
    const { repository, mailer, options, logger } = this.deps;
    const recipient = await repository.alertRecipient(userId);
    if (!recipient) return;
    const settings = readAlertSettings(recipient.setting);
    const sends: Array<Promise<void>> = [];
    const mailTo = settings.notificationEmail || recipient.email;
    if (options.get('SMTPServer') && mailTo) sends.push(mailer.send({ to: mailTo, subject: notice.subject, html: notice.html }));
    if (settings.webhookUrl) sends.push(this.post(settings.webhookUrl, settings.webhookSecret, notice));
    const results = await Promise.allSettled(sends);
    for (const result of results)
      if (result.status === 'rejected') logger.warn({ err: result.reason, userId, alert: notice.type }, 'alert could not be delivered');
  }

  private async post(url: string, secret: string, notice: AlertNotice): Promise<void> {
    const body = JSON.stringify({
      type: notice.type,
      title: notice.subject,
      content: notice.text,
      values: notice.values,
      timestamp: this.deps.clock.unixSeconds(),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (secret) headers['x-webhook-signature'] = createHmac('sha256', secret).update(body).digest('hex');
    const response = await this.deps.outgoing.open({ url, method: 'POST', headers, body, timeoutMs: webhookTimeoutMs });
    response.body.resume();
    if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`webhook answered HTTP ${response.statusCode}`);
  }
}
