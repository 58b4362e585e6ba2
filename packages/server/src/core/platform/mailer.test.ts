import { describe, expect, it } from 'vitest';
import { smtpTransportOptions } from './mailer.ts';

const base = { server: 'smtp.example.com', port: 587, account: 'me@example.com', from: '', token: 'secret', sslEnabled: false };

describe('SMTP transport options', () => {
  it('starts plain on 587 and upgrades with STARTTLS', () => {
    expect(smtpTransportOptions(base)).toMatchObject({ host: 'smtp.example.com', port: 587, secure: false, auth: { user: 'me@example.com', pass: 'secret' } });
  });

  it('speaks TLS from the first byte on port 465 or when SMTPSSLEnabled is on', () => {
    expect(smtpTransportOptions({ ...base, port: 465 }).secure).toBe(true);
    expect(smtpTransportOptions({ ...base, port: 2525, sslEnabled: true }).secure).toBe(true);
  });

  it('sends no credentials when no account is configured', () => {
    expect(smtpTransportOptions({ ...base, account: '' })).not.toHaveProperty('auth');
  });
});
