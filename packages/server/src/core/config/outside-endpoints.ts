import { z } from 'zod';

/**
 * Addresses of the outside services the login flows call. Production uses the providers' real
 * addresses; tests (and air-gapped deployments with a proxy) point them elsewhere. The variable names
 * follow new-api where it has one (LINUX_DO_TOKEN_ENDPOINT, LINUX_DO_USER_ENDPOINT).
 */
export interface OutsideEndpoints {
  /** Cloudflare Turnstile siteverify. */
  turnstileVerifyUrl: string;
  /** GitHub's OAuth token exchange. */
  githubTokenUrl: string;
  /** GitHub's "authenticated user" API. */
  githubUserUrl: string;
  linuxDoTokenUrl: string;
  linuxDoUserUrl: string;
}

const url = z.url({ protocol: /^https?$/ });

/** `fail` raises the configuration error naming the variable (config.ts passes its ConfigError). */
export function loadOutsideEndpoints(env: Record<string, string | undefined>, fail: (variable: string, detail: string) => never): OutsideEndpoints {
  const read = (name: string, fallback: string): string => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!url.safeParse(raw).success) fail(name, `must be an http(s) URL, got "${raw}"`);
    return raw;
  };
  return {
    turnstileVerifyUrl: read('TURNSTILE_VERIFY_URL', 'https://challenges.cloudflare.com/turnstile/v0/siteverify'),
    githubTokenUrl: read('GITHUB_TOKEN_URL', 'https://github.com/login/oauth/access_token'),
    githubUserUrl: read('GITHUB_USER_URL', 'https://api.github.com/user'),
    linuxDoTokenUrl: read('LINUX_DO_TOKEN_ENDPOINT', 'https://connect.linux.do/oauth2/token'),
    linuxDoUserUrl: read('LINUX_DO_USER_ENDPOINT', 'https://connect.linux.do/api/user'),
  };
}
