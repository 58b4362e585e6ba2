/** Telegram redirects the browser here after the bind widget; the server binds and sends it back to /setting. */
export const telegramBindUrl = '/api/oauth/telegram/bind';
