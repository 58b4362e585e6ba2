import type { BrowserContext } from 'playwright-core';

/**
 * Stand-ins for the third-party scripts the console loads (Cloudflare Turnstile, the Telegram login
 * widget), routed in the browser so no test touches the internet. The Turnstile stand-in renders a
 * button that passes the check with the token "pass" (which the fake siteverify accepts).
 */
export async function routeTurnstile(context: BrowserContext): Promise<void> {
  await context.route('https://challenges.cloudflare.com/**', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `window.turnstile = {
        render(element, options) {
          const button = document.createElement('button');
          button.type = 'button';
          button.textContent = 'turnstile-pass';
          button.onclick = () => options.callback('pass');
          element.appendChild(button);
          return 'widget-1';
        },
        remove() {},
      };`,
    }),
  );
}

/**
 * The Telegram widget stand-in: a button that hands `user` (signed by the test with the bot token) to
 * the page's data-onauth callback, or follows data-auth-url with the fields as the query, as Telegram does.
 */
export async function routeTelegram(context: BrowserContext, user: Record<string, string | number> = { id: 0, auth_date: 0, hash: 'unsigned' }): Promise<void> {
  await context.route('https://telegram.org/**', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `(() => {
        const script = document.currentScript;
        const user = ${JSON.stringify(user)};
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'telegram-login';
        button.onclick = () => {
          const authUrl = script.getAttribute('data-auth-url');
          if (authUrl) window.location.href = authUrl + '?' + new URLSearchParams(user).toString();
          else new Function('user', script.getAttribute('data-onauth'))(user);
        };
        script.parentNode.insertBefore(button, script);
      })();`,
    }),
  );
}

/** Telegram's signature over the widget fields. @see https://core.telegram.org/widgets/login#checking-authorization */
export async function signTelegramUser(botToken: string, fields: Record<string, string | number>): Promise<Record<string, string | number>> {
  const { createHash, createHmac } = await import('node:crypto');
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex');
  return { ...fields, hash };
}
