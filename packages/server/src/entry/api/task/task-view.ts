import type { DrawingView, TaskView } from '@switchboard/contracts';
import type { MidjourneyRow, TaskRow } from '../../../core/db/schema.ts';

/**
 * A drawing task as the console lists it. With MjForwardUrlEnabled the image is served through this
 * server (`/mj/image/{mj_id}`), so the upstream proxy address never reaches the browser.
 */
export function toDrawingView(row: MidjourneyRow, forward: { enabled: boolean; serverAddress: string }): DrawingView {
  const { channel_id: channelId, ...rest } = row;
  const imageUrl = forward.enabled && row.image_url ? `${forward.serverAddress}/mj/image/${row.mj_id}` : (row.image_url ?? '');
  return {
    ...rest,
    channel_id: Number(channelId),
    image_url: imageUrl,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    quota: Number(row.quota),
  };
}

/** An async task; `private_data` (upstream key and ids) is never sent. */
export function toTaskView(row: TaskRow): TaskView {
  const { private_data: _privateData, ...rest } = row;
  return {
    ...rest,
    channel_id: Number(row.channel_id),
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    quota: Number(row.quota),
  };
}
