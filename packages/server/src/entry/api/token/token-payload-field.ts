import { Role } from '@switchboard/contracts';
import { z } from 'zod';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import { fromBoolean } from '../../../core/db/dialect.ts';
import type { TokenUpdate } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';

/** The per-token payload logging switch on the wire (migration 0025's column); absent leaves it as is. */
export const tokenPayloadFields = { log_payload: z.boolean().nullish() };

export const tokenPayloadMessages = {
  administratorsOnly: {
    zh: '只有管理员可以为令牌开启请求内容记录',
    en: 'Only administrators can turn on payload logging for a token',
  },
} as const satisfies Record<string, LocalizedMessage>;

/**
 * The column a create or update writes. Only administrators read payloads, so only they may turn the
 * switch on (for their own tokens, to debug a client); anyone may send it off, as a console that
 * sends the whole token back does.
 */
export function tokenPayloadColumn(user: CurrentUser, logPayload: boolean | null | undefined): Pick<TokenUpdate, 'log_payload'> {
  if (logPayload === undefined || logPayload === null) return {};
  if (logPayload && user.role < Role.admin) throw new AppError(tokenPayloadMessages.administratorsOnly);
  return { log_payload: fromBoolean(logPayload) };
}
