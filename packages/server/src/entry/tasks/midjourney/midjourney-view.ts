import type { MidjourneyRow } from '../../../core/db/schema.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

/** A task in midjourney-proxy's own shape, as `fetch` and `list-by-condition` answer it. */
export interface MidjourneyTaskView {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  imageUrl: string;
  videoUrl: string;
  videoUrls: unknown;
  status: string;
  progress: string;
  failReason: string;
  buttons: unknown[];
  properties: Record<string, unknown>;
}

function parsedJson(text: string | null, fallback: unknown): unknown {
  if (!text) return fallback;
  const parsed = safeParseJson(text);
  return parsed.ok ? parsed.value : fallback;
}

/**
 * A drawing row as its owner sees it. With MjForwardUrlEnabled the image is served through this
 * server (`/mj/image/{id}`), so the proxy's address never reaches the caller; an unfinished image
 * gets a cache-busting query because its preview changes while it renders.
 */
export function toMidjourneyTaskView(row: MidjourneyRow, forward: { enabled: boolean; serverAddress: string; nonce: () => string }): MidjourneyTaskView {
  let imageUrl = row.image_url ?? '';
  if (imageUrl && forward.enabled) {
    imageUrl = `${forward.serverAddress.replace(/\/+$/, '')}/mj/image/${row.mj_id}`;
    if (row.status !== 'SUCCESS') imageUrl += `?rand=${forward.nonce()}`;
  }
  const buttons = parsedJson(row.buttons, []);
  const properties = parsedJson(row.properties, {});
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl,
    videoUrl: row.video_url ?? '',
    videoUrls: parsedJson(row.video_urls, []),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: Array.isArray(buttons) ? buttons : [],
    properties: typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? (properties as Record<string, unknown>) : {},
  };
}
