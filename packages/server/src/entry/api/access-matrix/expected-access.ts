/** Who may call a route: nobody logged in, an ordinary user (role 1), an administrator (10), root (100). */
export type ExpectedLevel = 'anonymous' | 'user' | 'admin' | 'root';

/**
 * The permission of every /api route, written down from the behaviour rather than read from the code:
 * the console's role rules and, where they are silent, classic new-api's router (U = user, A = admin,
 * R = root, — = anonymous). A route declared at another level, a route missing here, or an entry
 * here without a route fails the matrix test.
 * Routes the classic console calls with and without a trailing slash are listed in both forms.
 */
export const expectedAccess: Readonly<Record<string, ExpectedLevel>> = {
  // Public pages and status (pricing is public; status, notice, about and home page load before login).
  'GET /api/status': 'anonymous',
  'GET /api/notice': 'anonymous',
  'GET /api/about': 'anonymous',
  'GET /api/home_page_content': 'anonymous',
  'GET /api/user-agreement': 'anonymous',
  'GET /api/privacy-policy': 'anonymous',
  'GET /api/pricing': 'anonymous',
  // new-api's first-run setup: its state is public (new-api's console reads it before any login); only
  // root completes it, as the root account exists from the first start here.
  'GET /api/setup': 'anonymous',
  'POST /api/setup': 'root',
  // The models callers would be refused for lack of a price: the console marks them where models are picked.
  'GET /api/pricing/unpriced': 'admin',
  // new-api's later console: its uptime panel (empty without a monitor) and ratio sharing (ExposeRatioEnabled).
  'GET /api/uptime/status': 'anonymous',
  'GET /api/ratio_config': 'anonymous',

  // Register, login, logout, mail codes and password reset.
  'POST /api/user/register': 'anonymous',
  'POST /api/user/login': 'anonymous',
  // The second step of a login whose password (or OAuth) passed: the pending login names the user.
  'POST /api/user/login/2fa': 'anonymous',
  'POST /api/user/passkey/login/begin': 'anonymous',
  'POST /api/user/passkey/login/finish': 'anonymous',
  'GET /api/user/logout': 'anonymous',
  'GET /api/verification': 'anonymous',
  'GET /api/reset_password': 'anonymous',
  'POST /api/user/reset': 'anonymous',

  // Third-party logins; the bindings need the logged-in user. Telegram's bind URL is opened by the
  // widget without the New-Api-User header, so it is public and checks the session itself.
  'GET /api/oauth/state': 'anonymous',
  'GET /api/oauth/github': 'anonymous',
  'GET /api/oauth/linuxdo': 'anonymous',
  'GET /api/oauth/wechat': 'anonymous',
  'GET /api/oauth/telegram/login': 'anonymous',
  'GET /api/oauth/telegram/bind': 'anonymous',
  'GET /api/oauth/wechat/bind': 'user',
  'GET /api/oauth/email/bind': 'user',

  // Self service.
  'GET /api/user/self': 'user',
  'PUT /api/user/self': 'user',
  'GET /api/user/2fa/status': 'user',
  'POST /api/user/2fa/setup': 'user',
  'POST /api/user/2fa/enable': 'user',
  'POST /api/user/2fa/disable': 'user',
  'POST /api/user/2fa/backup_codes': 'user',
  'POST /api/verify': 'user',
  'GET /api/user/passkey': 'user',
  'POST /api/user/passkey/register/begin': 'user',
  'POST /api/user/passkey/register/finish': 'user',
  'POST /api/user/passkey/verify/begin': 'user',
  'POST /api/user/passkey/verify/finish': 'user',
  'PUT /api/user/passkey/:id': 'user',
  'DELETE /api/user/passkey/:id': 'user',
  'DELETE /api/user/passkey': 'user',
  'DELETE /api/user/self': 'user',
  'GET /api/user/token': 'user',
  'GET /api/user/aff': 'user',
  'POST /api/user/aff_transfer': 'user',
  'GET /api/user/models': 'user',
  'GET /api/user/self/groups': 'user',
  // new-api's personal notification settings (its later console calls it without a trailing slash).
  'PUT /api/user/setting': 'user',

  // Wallet; the payment gateway's callback carries no session.
  'POST /api/user/topup': 'user',
  'POST /api/user/amount': 'user',
  'POST /api/user/pay': 'user',
  'GET /api/user/topup/info': 'user',
  'GET /api/user/topup/self': 'user',
  'GET /api/user/epay/notify': 'anonymous',
  'POST /api/user/epay/notify': 'anonymous',

  // User management (administrator).
  'GET /api/user/': 'admin',
  'GET /api/user': 'admin',
  'POST /api/user/': 'admin',
  'POST /api/user': 'admin',
  'PUT /api/user/': 'admin',
  'PUT /api/user': 'admin',
  'GET /api/user/search': 'admin',
  'GET /api/user/:id': 'admin',
  'POST /api/user/manage': 'admin',
  'DELETE /api/user/:id': 'admin',
  'DELETE /api/user/:id/2fa': 'admin',
  'DELETE /api/user/:id/reset_passkey': 'admin',
  'GET /api/user/2fa/stats': 'admin',

  // Settings: only the super administrator.
  'GET /api/option/': 'root',
  'GET /api/option': 'root',
  'PUT /api/option/': 'root',
  'PUT /api/option': 'root',
  // Empties the response cache (relay/response-cache/): administrators, as the channel tools.
  'POST /api/response_cache/purge': 'admin',
  'GET /api/response_cache/stats': 'admin',
  'POST /api/option/rest_model_ratio': 'root',
  'GET /api/group/': 'admin',
  'GET /api/group': 'admin',

  // Logs: every user's for administrators (and the classic purge), one's own for everyone.
  'GET /api/log/': 'admin',
  'GET /api/log': 'admin',
  'DELETE /api/log/': 'admin',
  'DELETE /api/log': 'admin',
  'GET /api/log/stat': 'admin',
  'GET /api/log/:id/payload': 'admin',
  'GET /api/log/self/': 'user',
  'GET /api/log/self': 'user',
  'GET /api/log/self/stat': 'user',

  // Channels (administrator); the channel-type model catalogue is for every logged-in user.
  'GET /api/channel/': 'admin',
  'GET /api/channel': 'admin',
  'POST /api/channel/': 'admin',
  'POST /api/channel': 'admin',
  'PUT /api/channel/': 'admin',
  'PUT /api/channel': 'admin',
  'GET /api/channel/search': 'admin',
  'GET /api/channel/models': 'admin',
  'GET /api/channel/models_enabled': 'admin',
  // The one-time notice about a one-api database opened in place (issue 21): the root only.
  'GET /api/move-over': 'root',
  'POST /api/move-over/dismiss': 'root',
  // new-api's prefill groups (model/tag/endpoint lists for the channel form): administrators.
  'GET /api/prefill_group/': 'admin',
  'GET /api/prefill_group': 'admin',
  'POST /api/prefill_group/': 'admin',
  'POST /api/prefill_group': 'admin',
  'PUT /api/prefill_group/': 'admin',
  'PUT /api/prefill_group': 'admin',
  'DELETE /api/prefill_group/:id': 'admin',
  'GET /api/models': 'user',
  // new-api's model catalogue (models and vendors): administrators. `GET /api/models` above, without
  // the slash, is the channel form's default models, as in new-api; the catalogue list is `GET /api/models/`.
  'GET /api/models/': 'admin',
  'GET /api/models/search': 'admin',
  'GET /api/models/missing': 'admin',
  'GET /api/models/sync_upstream/preview': 'admin',
  'POST /api/models/sync_upstream': 'admin',
  'GET /api/models/:id': 'admin',
  'POST /api/models/': 'admin',
  'POST /api/models': 'admin',
  'PUT /api/models/': 'admin',
  'PUT /api/models': 'admin',
  'DELETE /api/models/:id': 'admin',
  'GET /api/vendors/': 'admin',
  'GET /api/vendors': 'admin',
  'POST /api/vendors/': 'admin',
  'POST /api/vendors': 'admin',
  'PUT /api/vendors/': 'admin',
  'PUT /api/vendors': 'admin',
  'GET /api/vendors/search': 'admin',
  'GET /api/vendors/:id': 'admin',
  'DELETE /api/vendors/:id': 'admin',
  'DELETE /api/channel/disabled': 'admin',
  'DELETE /api/channel/disabled/': 'admin',
  'POST /api/channel/batch': 'admin',
  'POST /api/channel/batch/tag': 'admin',
  'POST /api/channel/copy/:id': 'admin',
  'POST /api/channel/fix': 'admin',
  'PUT /api/channel/tag': 'admin',
  'POST /api/channel/tag/enabled': 'admin',
  'POST /api/channel/tag/disabled': 'admin',
  'GET /api/channel/update_balance': 'admin',
  'GET /api/channel/update_balance/': 'admin',
  'GET /api/channel/update_balance/:id': 'admin',
  'GET /api/channel/update_balance/:id/': 'admin',
  'GET /api/channel/fetch_models/:id': 'admin',
  'POST /api/channel/fetch_models': 'admin',
  'GET /api/channel/:id': 'admin',
  // Revealing an upstream key: only the super administrator, and logged (new-api: POST /:id/key, R).
  'POST /api/channel/:id/key': 'root',
  'GET /api/channel/:id/': 'admin',
  'DELETE /api/channel/:id': 'admin',
  'DELETE /api/channel/:id/': 'admin',
  'GET /api/channel/test': 'admin',
  'GET /api/channel/test/:id': 'admin',
  // Circuit breaker state per channel (Switchboard's own, for the channel list).
  'GET /api/channel/breaker': 'admin',
  // Whether the quota journal can be written (Switchboard's own, for root's console banner).
  'GET /api/status/journal': 'root',

  // Tokens: every user manages their own.
  'GET /api/token/': 'user',
  'GET /api/token': 'user',
  'POST /api/token/': 'user',
  'POST /api/token': 'user',
  'PUT /api/token/': 'user',
  'PUT /api/token': 'user',
  'GET /api/token/search': 'user',
  'GET /api/token/:id': 'user',
  'POST /api/token/:id/key': 'user',
  'GET /api/token/:id/': 'user',
  'DELETE /api/token/:id': 'user',
  'DELETE /api/token/:id/': 'user',

  // Redemption codes (administrator).
  'GET /api/redemption/': 'admin',
  'GET /api/redemption': 'admin',
  'POST /api/redemption/': 'admin',
  'POST /api/redemption': 'admin',
  'PUT /api/redemption/': 'admin',
  'PUT /api/redemption': 'admin',
  'GET /api/redemption/search': 'admin',
  'DELETE /api/redemption/invalid': 'admin',
  'DELETE /api/redemption/invalid/': 'admin',
  'GET /api/redemption/:id': 'admin',
  'GET /api/redemption/:id/': 'admin',
  'DELETE /api/redemption/:id': 'admin',
  'DELETE /api/redemption/:id/': 'admin',

  // Drawing and async tasks: all users' for administrators, one's own through /self.
  'GET /api/mj/': 'admin',
  'GET /api/mj': 'admin',
  'GET /api/mj/self/': 'user',
  'GET /api/mj/self': 'user',
  'GET /api/task/': 'admin',
  'GET /api/task': 'admin',
  'GET /api/task/self': 'user',
  'GET /api/task/self/': 'user',

  // Spending budgets: one's own tokens and page; administrators set any user's.
  'GET /api/budget/tokens': 'user',
  'PUT /api/budget/tokens/:id': 'user',
  'GET /api/budget/self': 'user',
  'PUT /api/budget/self/alerts': 'user',
  'GET /api/budget/users/:id': 'admin',
  'PUT /api/budget/users/:id': 'admin',

  // Dashboard data.
  'GET /api/data/': 'admin',
  'GET /api/data': 'admin',
  'GET /api/data/users': 'admin',
  'GET /api/data/users/': 'admin',
  'GET /api/data/channels': 'admin',
  'GET /api/data/channels/': 'admin',
  'GET /api/data/self': 'user',
  'GET /api/data/self/': 'user',

  // CSV exports of the console's tables (issue 22): the list's own level; tokens and self logs are one's own.
  'GET /api/export/logs': 'admin',
  'GET /api/export/logs/self': 'user',
  'GET /api/export/users': 'admin',
  'GET /api/export/channels': 'admin',
  'GET /api/export/tokens': 'user',
  'GET /api/export/redemptions': 'admin',
};
