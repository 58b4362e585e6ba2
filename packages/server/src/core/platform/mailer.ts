import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { OptionStore } from '../../domain/options/option-store.ts';

export interface SmtpSettings {
  server: string;
  port: number;
  account: string;
  from: string;
  token: string;
  sslEnabled: boolean;
}

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
}

/** Raised when mail cannot be sent because SMTP is not configured (callers tell the user so). */
export class MailNotConfiguredError extends Error {}

/**
 * Port 465 speaks TLS from the first byte, as does any port when SMTPSSLEnabled is on; other ports
 * start plain and upgrade with STARTTLS when the server offers it.
 */
export function smtpTransportOptions(settings: SmtpSettings): SMTPTransport.Options {
  return {
    host: settings.server,
    port: settings.port,
    secure: settings.port === 465 || settings.sslEnabled,
    ...(settings.account ? { auth: { user: settings.account, pass: settings.token } } : {}),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
}

export function smtpSettingsFromOptions(options: OptionStore): SmtpSettings {
  return {
    server: options.get('SMTPServer'),
    port: options.getNumber('SMTPPort'),
    account: options.get('SMTPAccount'),
    from: options.get('SMTPFrom'),
    token: options.get('SMTPToken'),
    sslEnabled: options.getBoolean('SMTPSSLEnabled'),
  };
}

/**
 * Sends mail through the SMTP server in the options. The settings are read on every send, so a
 * change in the console applies to the next mail without a restart.
 */
export class Mailer {
  private readonly options: OptionStore;

  constructor(options: OptionStore) {
    this.options = options;
  }

  async send(message: MailMessage): Promise<void> {
    const settings = smtpSettingsFromOptions(this.options);
    if (!settings.server) throw new MailNotConfiguredError('SMTP server is not configured');
    // Loaded on the first mail: most instances rarely send any, and nodemailer costs about 20 MB.
    const { default: nodemailer } = await import('nodemailer');
    const transport = nodemailer.createTransport(smtpTransportOptions(settings));
    try {
      const systemName = this.options.get('SystemName');
      await transport.sendMail({
        from: { name: systemName, address: settings.from || settings.account },
        to: message.to,
        subject: message.subject,
        html: message.html,
      });
    } finally {
      transport.close();
    }
  }
}
