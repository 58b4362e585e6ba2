import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { difyUploadSchema, pendingUploadField, type DifyChatRequest, type DifyFile } from './dify-api.ts';

/** The chat-messages path; the upload endpoint sits beside it under the same base. */
export const chatMessagesPath = '/v1/chat-messages';

/** `data:<mime>;base64,<data>` → the bytes and their type. */
export function decodeDataUrl(url: string): { mimeType: string; bytes: Buffer } | undefined {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mimeType: match[1] ?? 'image/jpeg', bytes: Buffer.from(match[2] ?? '', 'base64') };
}

/** A multipart/form-data body with the `user` field and one `file` part, as files/upload wants it. */
export function uploadForm(user: string, image: { mimeType: string; bytes: Buffer }): { contentType: string; body: Buffer } {
  const boundary = `----switchboard${randomUUID().replaceAll('-', '')}`;
  const extension = image.mimeType.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'jpg';
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="user"\r\n\r\n${user}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.${extension}"\r\nContent-Type: ${image.mimeType}\r\n\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.concat([Buffer.from(head), image.bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
  };
}

function jsonAnswer(statusCode: number, body: unknown): UpstreamResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

/**
 * Uploads one inline image; the file reference on success, else Dify's failed answer, which becomes
 * the answer of the whole request (an invalid key disables the channel; a refused image is the
 * caller's error, reported instead of silently answering without the image, as new-api would).
 */
async function upload(
  baseUrl: string,
  request: UpstreamRequest,
  user: string,
  file: DifyFile,
  options: TransportOptions,
): Promise<DifyFile | UpstreamResponse> {
  const image = decodeDataUrl(file[pendingUploadField] ?? '');
  if (!image) return jsonAnswer(400, { status: 400, code: 'invalid_param', message: 'an inline image is not a base64 data URL' });
  const form = uploadForm(user, image);
  const response = await httpTransport.send(
    {
      url: `${baseUrl}/v1/files/upload`,
      method: 'POST',
      headers: { authorization: request.headers['authorization'] ?? '', 'content-type': form.contentType },
      body: form.body,
    },
    options,
  );
  const answer = safeParseJson(await text(response.body));
  const uploaded = response.statusCode < 300 && answer.ok ? difyUploadSchema.safeParse(answer.value) : undefined;
  if (!uploaded?.success) return jsonAnswer(response.statusCode >= 400 ? response.statusCode : 502, answer.ok ? answer.value : {});
  return { type: 'image', transfer_mode: 'local_file', upload_file_id: uploaded.data.id };
}

/**
 * Plain HTTP, except that inline images of a chat request are uploaded to the app first (`POST
 * /v1/files/upload`, under the same `user`) and referenced by the `upload_file_id` Dify returns, as
 * new-api's dify adaptor does: chat-messages takes images only as URLs or uploaded files.
 * @see https://docs.dify.ai/en/openapi-api-access-readme (files/upload)
 */
export const difyTransport: Transport = {
  async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    if (!request.url.endsWith(chatMessagesPath) || typeof request.body !== 'string' || !request.body.includes(pendingUploadField))
      return httpTransport.send(request, options);
    const parsed = safeParseJson(request.body);
    if (!parsed.ok) return httpTransport.send(request, options);
    const chat = parsed.value as DifyChatRequest;
    const baseUrl = request.url.slice(0, -chatMessagesPath.length);
    const files: DifyFile[] = [];
    for (const file of chat.files) {
      if (file[pendingUploadField] === undefined) {
        files.push(file);
        continue;
      }
      const uploaded = await upload(baseUrl, request, chat.user, file, options);
      if ('statusCode' in uploaded) return uploaded;
      files.push(uploaded);
    }
    return httpTransport.send({ ...request, body: JSON.stringify({ ...chat, files }) }, options);
  },
};
