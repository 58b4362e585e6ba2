import type { TaskRow } from '../../../core/db/schema.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

/** A Suno task as `/suno/fetch` answers it (the Suno API's task shape); the upstream ids and key stay private. */
export interface SunoTaskView {
  task_id: string;
  action: string;
  status: string;
  fail_reason: string;
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  data: unknown;
}

export function toSunoTaskView(row: TaskRow): SunoTaskView {
  const data = row.data ? safeParseJson(row.data) : undefined;
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: data?.ok ? data.value : null,
  };
}

/** What the relay keeps about a task for itself (tasks.private_data): never shown to anyone. */
export interface SunoPrivateData {
  readonly token_id: number;
  readonly upstream_task_id: string;
}

export function readPrivateData(text: string | null): SunoPrivateData {
  const parsed = text ? safeParseJson(text) : undefined;
  const value = parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>) : {};
  return { token_id: Number(value.token_id) || 0, upstream_task_id: typeof value.upstream_task_id === 'string' ? value.upstream_task_id : '' };
}
