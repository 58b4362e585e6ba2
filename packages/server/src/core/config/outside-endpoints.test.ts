import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('outside endpoints', () => {
  it("uses the providers' real addresses by default", () => {
    expect(loadConfig({}).outsideEndpoints).toEqual({
      turnstileVerifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      githubTokenUrl: 'https://github.com/login/oauth/access_token',
      githubUserUrl: 'https://api.github.com/user',
      linuxDoTokenUrl: 'https://connect.linux.do/oauth2/token',
      linuxDoUserUrl: 'https://connect.linux.do/api/user',
    });
  });

  it('takes overrides and refuses a value that is not an http(s) URL, naming the variable', () => {
    expect(loadConfig({ LINUX_DO_USER_ENDPOINT: 'http://127.0.0.1:9000/api/user' }).outsideEndpoints.linuxDoUserUrl).toBe('http://127.0.0.1:9000/api/user');
    expect(() => loadConfig({ TURNSTILE_VERIFY_URL: 'ftp://example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ TURNSTILE_VERIFY_URL: 'ftp://example.com' })).toThrow(/TURNSTILE_VERIFY_URL/);
  });
});
