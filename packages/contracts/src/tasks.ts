/**
 * An async (music or lyrics) task as the console lists it (`GET /api/task/`, `/api/task/self`, pages
 * from 1); times are Unix seconds. The upstream key and ids (`private_data`) are never part of it.
 */
export interface TaskView {
  id: number;
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: string;
  user_id: number;
  group: string;
  channel_id: number;
  quota: number;
  /** MUSIC or LYRICS. */
  action: string;
  /** NOT_START, SUBMITTED, QUEUED, IN_PROGRESS, SUCCESS, FAILURE, UNKNOWN; empty while submitting. */
  status: string;
  fail_reason: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  properties: string | null;
  /** The upstream's JSON answer, as text. */
  data: string | null;
}

/**
 * A Midjourney drawing as the console lists it (`GET /api/mj/`, `/api/mj/self/`, pages from 1); its
 * times are Unix milliseconds, as the drawing proxy reports them.
 */
export interface DrawingView {
  id: number;
  /** 0 not submitted, 1 submitted, 21 waiting, 22 duplicate. */
  code: number;
  user_id: number;
  action: string;
  mj_id: string;
  prompt: string | null;
  prompt_en: string | null;
  description: string | null;
  state: string | null;
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** Through this server (`/mj/image/{mj_id}`) when MjForwardUrlEnabled is on; '' when none. */
  image_url: string;
  video_url: string | null;
  video_urls: string | null;
  status: string;
  progress: string;
  fail_reason: string | null;
  channel_id: number;
  quota: number;
  buttons: string | null;
  properties: string | null;
}
