/**
 * A server message in both console languages. Features keep their own messages beside their code
 * (`<feature>.messages.ts`) and throw `AppError` with one; the error handler renders it in the
 * caller's language. Only messages shared by every feature live here.
 */
export interface LocalizedMessage {
  readonly zh: string;
  readonly en: string;
}

export type Language = 'zh' | 'en';

export const commonMessages = {
  invalidParameter: { zh: '无效的参数', en: 'Invalid parameter' },
  invalidInput: { zh: '输入不合法', en: 'Invalid input' },
  invalidRequest: { zh: '无效的请求', en: 'Invalid request' },
  invalidJson: { zh: '请求体不是合法的 JSON', en: 'The request body is not valid JSON' },
  bodyTooLarge: { zh: '请求体过大', en: 'The request body is too large' },
  notFound: { zh: '资源不存在', en: 'Not found' },
  routeNotFound: { zh: '接口不存在：{path}', en: 'No such API route: {path}' },
  tooManyRequests: { zh: '请求过于频繁，请稍后再试', en: 'Too many requests, try again later' },
  internalError: { zh: '服务器内部错误，请联系管理员', en: 'Server internal error, contact the administrator' },
  notLoggedIn: { zh: '未登录或登录已过期，请重新登录', en: 'Not logged in or session expired' },
  userMismatch: { zh: '无权进行此操作，New-Api-User 与登录用户不一致', en: 'No permission: New-Api-User does not match the logged-in user' },
  userHeaderMissing: { zh: '无权进行此操作，未提供 New-Api-User', en: 'No permission: the New-Api-User header is missing' },
  userBanned: { zh: '用户已被封禁', en: 'User has been banned' },
  insufficientPermission: { zh: '无权进行此操作，权限不足', en: 'Insufficient permission for this operation' },
} as const satisfies Record<string, LocalizedMessage>;

export function renderMessage(message: LocalizedMessage, language: Language, params: Record<string, string | number> = {}): string {
  return message[language].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/**
 * The console defaults to Chinese; relay callers (SDKs send no Accept-Language) default to English.
 * Either follows an explicit Accept-Language.
 */
export function languageFromHeader(acceptLanguage: string | undefined, fallback: Language = 'zh'): Language {
  const value = acceptLanguage?.trim().toLowerCase() ?? '';
  if (value.startsWith('en')) return 'en';
  if (value.startsWith('zh')) return 'zh';
  return fallback;
}
