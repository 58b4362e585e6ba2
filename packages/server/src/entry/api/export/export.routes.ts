import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireUser } from '../../../domain/auth/authenticate.ts';
import { languageFromHeader } from '../../../core/messages/catalogue.ts';
import { fieldRefusal } from '../../../core/http/listing/parse-input.ts';
import { textParameter } from '../../../core/http/listing/query-parameters.ts';
import { logFiltersFrom } from '../log/log-filters.ts';
import type { ExportLocale } from './export-format.ts';
import type { ExportSlots } from './export-slots.ts';
import type { ExportFile, ExportService } from './export.service.ts';

type Query = Record<string, unknown>;
const admin = { config: { access: 'admin' as const } };
const user = { config: { access: 'user' as const } };
/** The widest offsets in use are UTC−12 and UTC+14. */
const maximumOffsetMinutes = 14 * 60;

/** `lang` (zh or en) wins over Accept-Language; `utc_offset` is minutes east of UTC (default 0). */
function localeFrom(request: FastifyRequest): ExportLocale {
  const query = request.query as Query;
  const lang = textParameter(query, 'lang');
  if (lang !== '' && lang !== 'zh' && lang !== 'en') throw fieldRefusal('lang');
  const offsetText = textParameter(query, 'utc_offset');
  if (offsetText !== '' && !/^-?\d{1,3}$/.test(offsetText)) throw fieldRefusal('utc_offset');
  const utcOffsetMinutes = offsetText === '' ? 0 : Number(offsetText);
  if (Math.abs(utcOffsetMinutes) > maximumOffsetMinutes) throw fieldRefusal('utc_offset');
  return { language: lang === 'zh' || lang === 'en' ? lang : languageFromHeader(request.headers['accept-language'], 'zh'), utcOffsetMinutes };
}

/** What every download shares: the per-caller slots and how long a reader may take nothing. */
export interface ExportLimits {
  readonly slots: ExportSlots;
  readonly readTimeoutMs: number;
}

/**
 * Streams the file: the stream pulls the next batch only when the socket took the last (backpressure).
 * The caller's export slot is held until the download ends; a reader that takes nothing for
 * `readTimeoutMs` (the socket idle: nothing written, nothing read) is cut off, which ends it too.
 */
function sendCsv(request: FastifyRequest, reply: FastifyReply, limits: ExportLimits, file: () => ExportFile): FastifyReply {
  const giveBack = limits.slots.take(requireUser(request));
  const socket = request.raw.socket as Socket | undefined;
  const stalled = () => socket?.destroy();
  socket?.setTimeout?.(limits.readTimeoutMs, stalled);
  // A kept-alive socket goes on to serve other requests: the server re-arms its own idle timeout when
  // the answer finishes, and only this export's cut-off is taken off.
  const ended = () => {
    giveBack();
    socket?.off?.('timeout', stalled);
  };
  reply.raw.once('close', ended);
  reply.raw.once('finish', ended);
  let opened: ExportFile;
  try {
    opened = file();
  } catch (error) {
    ended();
    throw error;
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${opened.filename}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(opened.chunks, { objectMode: false, highWaterMark: 64 * 1024 }));
}

/**
 * CSV exports of the console's tables, every row (not one page) with the list's own filters: logs
 * (everyone's for administrators, one's own otherwise), users, channels and codes (administrators),
 * one's own tokens.
 */
export function registerExportRoutes(app: FastifyInstance, service: ExportService, limits: ExportLimits): void {
  const send = (request: FastifyRequest, reply: FastifyReply, file: () => ExportFile) => sendCsv(request, reply, limits, file);
  app.get('/api/export/logs', admin, async (request, reply) =>
    send(request, reply, () => service.logs(logFiltersFrom(request.query as Query), localeFrom(request), true)),
  );
  app.get('/api/export/logs/self', user, async (request, reply) =>
    send(request, reply, () => service.logs(logFiltersFrom(request.query as Query, { userId: requireUser(request).id }), localeFrom(request), false)),
  );
  app.get('/api/export/users', admin, async (request, reply) => send(request, reply, () => service.users(localeFrom(request))));
  app.get('/api/export/channels', admin, async (request, reply) => send(request, reply, () => service.channels(localeFrom(request))));
  app.get('/api/export/tokens', user, async (request, reply) => send(request, reply, () => service.tokens(requireUser(request).id, localeFrom(request))));
  app.get('/api/export/redemptions', admin, async (request, reply) => send(request, reply, () => service.redemptions(localeFrom(request))));
}
