export interface ConsolePolicyOptions {
  /**
   * Telegram login is on: its widget script turns the page's `data-onauth` attribute into a function
   * with `new Function`, which needs 'unsafe-eval'. Off, the page allows no string evaluation at all.
   */
  telegramLogin: boolean;
}

/** Third-party scripts the console loads itself: Cloudflare Turnstile and the Telegram login widget. */
const widgetScripts = ['https://challenges.cloudflare.com', 'https://telegram.org'];

/**
 * The console's Content-Security-Policy, fitted to what the built console does: its own module
 * scripts only (Vite emits no inline script); inline styles, because antd's CSS-in-JS injects
 * <style> tags; images and frames from anywhere, because administrators put logos, pictures and
 * pages (home, about, chat front ends) of any address into it; API calls to its own origin only.
 * `form-action` is left open: online payment posts a form to the configured payment gateway.
 */
export function consoleContentSecurityPolicy(options: ConsolePolicyOptions): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${widgetScripts.join(' ')}${options.telegramLogin ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https: http:",
    "font-src 'self' data:",
    "connect-src 'self'",
    'frame-src https: http:',
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Headers on the console page and its files: the policy above, no framing by other sites, no sniffing. */
export function consoleSecurityHeaders(options: ConsolePolicyOptions): Record<string, string> {
  return {
    'content-security-policy': consoleContentSecurityPolicy(options),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // Console URLs can carry one-time tokens (password reset); other sites get the origin only.
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}
