import { readFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { safeParseJson } from '../../../../../core/platform/safe-json.ts';
import { readJsonFixture } from '../../claude/testing/fixtures.ts';
import { sparkSignature } from '../sign-spark-url.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** How an iFlytek application of the fake behaves once its handshake is accepted. */
type Behaviour = 'answer' | 'second-limit' | 'no-license' | 'cut-short' | 'output-refused' | 'silent';

interface FakeAccount {
  readonly appId: string;
  readonly apiSecret: string;
  readonly apiKey: string;
  readonly behaviour: Behaviour;
}

const account = (name: string, behaviour: Behaviour): FakeAccount => ({
  appId: `app${name.slice(0, 5)}`,
  apiSecret: `secret-of-${name}`,
  apiKey: `key-of-${name}`,
  behaviour,
});

const accounts = {
  good: account('good', 'answer'),
  backup: account('backup', 'answer'),
  secondLimit: account('limited', 'second-limit'),
  noLicense: account('nolicense', 'no-license'),
  cutShort: account('cut', 'cut-short'),
  outputRefused: account('refused', 'output-refused'),
  silent: account('silent', 'silent'),
} as const;

const channelKey = (entry: FakeAccount, secret = entry.apiSecret): string => `${entry.appId}|${secret}|${entry.apiKey}`;

/** Channel keys (`APPID|APISecret|APIKey`) the fake knows, by what they make it do. */
export const fakeSparkKeys = {
  good: channelKey(accounts.good),
  backup: channelKey(accounts.backup),
  wrongSecret: channelKey(accounts.good, 'not-the-secret'),
  secondLimit: channelKey(accounts.secondLimit),
  noLicense: channelKey(accounts.noLicense),
  cutShort: channelKey(accounts.cutShort),
  outputRefused: channelKey(accounts.outputRefused),
  silent: channelKey(accounts.silent),
} as const;

/** Words whose question the fake's input audit refuses (10013). */
export const refusedQuestion = 'forbidden topic';

/** One session the fake accepted: the path it was opened on and the request message. */
export interface ReceivedSparkSession {
  readonly path: string;
  readonly message: Record<string, unknown>;
}

export interface FakeSpark {
  /** `http://127.0.0.1:<port>`, what a channel's base URL holds (the provider speaks ws:// to it). */
  readonly url: string;
  readonly sessions: ReceivedSparkSession[];
  close(): Promise<void>;
}

function frames(name: string): string[] {
  return readFileSync(new URL(name, fixtures), 'utf8').split('\n').filter(Boolean);
}

function refuseHandshake(socket: Socket, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n`;
  socket.end(head + text);
}

/**
 * iFlytek's HMAC check of the handshake: the `authorization` query names the APIKey and carries the
 * signature of host, date and request line with the APISecret; the date may be five minutes off.
 * @see https://www.xfyun.cn/doc/spark/general_url_authentication.html
 */
function checkSignature(request: IncomingMessage, nowMs: number): { account: FakeAccount } | { status: number; body: unknown } {
  const address = new URL(request.url ?? '/', 'http://fake');
  const authorization = address.searchParams.get('authorization');
  const date = address.searchParams.get('date') ?? '';
  if (!authorization) return { status: 401, body: { message: 'Unauthorized' } };
  const fields = /api_key="([^"]*)", algorithm="hmac-sha256", headers="host date request-line", signature="([^"]*)"/.exec(
    Buffer.from(authorization, 'base64').toString('utf8'),
  );
  const found = Object.values(accounts).find((entry) => entry.apiKey === fields?.[1]);
  if (!fields || !found) return { status: 401, body: { message: 'HMAC signature cannot be verified' } };
  const dateMs = Date.parse(date);
  if (!Number.isFinite(dateMs) || Math.abs(nowMs - dateMs) > 300_000) return { status: 403, body: readJsonFixture(fixtures, 'handshake-clock-skew.json') };
  const host = address.searchParams.get('host') ?? '';
  if (host !== request.headers.host || fields[2] !== sparkSignature(host, date, address.pathname, found.apiSecret))
    return { status: 401, body: readJsonFixture(fixtures, 'handshake-signature-mismatch.json') };
  return { account: found };
}

function lastQuestion(message: Record<string, unknown>): string {
  const turns = (message.payload as { message?: { text?: { role?: string; content?: string }[] } } | undefined)?.message?.text ?? [];
  return turns.filter((turn) => turn.role === 'user').at(-1)?.content ?? '';
}

/** Answers one session's request message as the account's behaviour says. */
function answer(socket: WebSocket, entry: FakeAccount, message: Record<string, unknown>): void {
  const sendAll = (lines: string[]) => {
    for (const line of lines) socket.send(line);
    socket.close();
  };
  const header = message.header as { app_id?: unknown } | undefined;
  if (header?.app_id !== entry.appId || entry.behaviour === 'no-license') return sendAll([JSON.stringify(readJsonFixture(fixtures, 'error-no-license.json'))]);
  if (entry.behaviour === 'second-limit') return sendAll([JSON.stringify(readJsonFixture(fixtures, 'error-second-limit.json'))]);
  if (entry.behaviour === 'silent') return;
  if (lastQuestion(message).includes(refusedQuestion)) return sendAll([JSON.stringify(readJsonFixture(fixtures, 'error-input-audit.json'))]);
  const text = frames('chat-text.frames.jsonl');
  if (entry.behaviour === 'cut-short') {
    for (const line of text.slice(0, 2)) socket.send(line);
    // Gone without a closing handshake, as a dropped connection looks.
    socket.terminate();
    return;
  }
  if (entry.behaviour === 'output-refused') return sendAll([text[0] ?? '', JSON.stringify(readJsonFixture(fixtures, 'error-output-audit.json'))]);
  const functions = (message.payload as { functions?: unknown } | undefined)?.functions;
  sendAll(functions ? frames('chat-function-call.frames.jsonl') : text);
}

/**
 * iFlytek's Spark WebSocket API on 127.0.0.1: the signed handshake checked as iFlytek checks it
 * (refused with 401/403 and iFlytek's JSON message), then one request message answered with the
 * recorded frames, or with the error frame the application's behaviour calls for.
 */
export async function startFakeSpark(): Promise<FakeSpark> {
  const sessions: ReceivedSparkSession[] = [];
  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const webSockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const checked = checkSignature(request, Date.now());
    if ('status' in checked) return refuseHandshake(socket, checked.status, checked.body);
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      webSocket.once('message', (data) => {
        const parsed = safeParseJson(String(data));
        const message = parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : {};
        sessions.push({ path: new URL(request.url ?? '/', 'http://fake').pathname, message });
        answer(webSocket, checked.account, message);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sessions,
    async close() {
      for (const client of webSockets.clients) client.terminate();
      for (const socket of sockets) socket.destroy();
      webSockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
