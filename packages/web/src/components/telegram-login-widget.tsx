import { useEffect, useRef } from 'react';

/** @see https://core.telegram.org/widgets/login */
export const telegramWidgetScript = 'https://telegram.org/js/telegram-widget.js?22';

const callbackName = 'switchboardTelegramAuth';

declare global {
  interface Window {
    [callbackName]?: (user: unknown) => void;
  }
}

type TelegramWidgetProps = { botName: string } & ({ onAuth: (user: unknown) => void; authUrl?: never } | { authUrl: string; onAuth?: never });

/**
 * Telegram's login button. The widget script replaces itself with an iframe where it stands, so it
 * is inserted inside this component rather than in <head>. With `authUrl` Telegram redirects there
 * (the bind flow); with `onAuth` the page receives the signed fields (the login flow).
 */
export function TelegramLoginWidget({ botName, onAuth, authUrl }: TelegramWidgetProps) {
  const container = useRef<HTMLDivElement>(null);
  const handler = useRef(onAuth);
  useEffect(() => {
    handler.current = onAuth;
  }, [onAuth]);

  useEffect(() => {
    const host = container.current;
    if (!host) return;
    const script = document.createElement('script');
    script.src = telegramWidgetScript;
    script.async = true;
    script.setAttribute('data-telegram-login', botName);
    script.setAttribute('data-size', 'medium');
    script.setAttribute('data-request-access', 'write');
    if (authUrl) script.setAttribute('data-auth-url', authUrl);
    else {
      window[callbackName] = (user) => handler.current?.(user);
      script.setAttribute('data-onauth', `${callbackName}(user)`);
    }
    host.appendChild(script);
    return () => {
      host.replaceChildren();
      if (!authUrl) delete window[callbackName];
    };
  }, [botName, authUrl]);

  return <div ref={container} data-testid="telegram-widget" />;
}
