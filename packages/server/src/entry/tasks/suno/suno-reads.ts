import type { RelayCaller } from '../../relay/pipeline/caller-auth.ts';
import { sunoError, sunoSuccess, type SunoAnswer } from './suno-answer.ts';
import { toSunoTaskView } from './suno-view.ts';
import type { SunoRepository } from './suno.repository.ts';

/** GET /suno/fetch/:id, from the database: the caller's own task only. */
export async function fetchSunoTask(repository: SunoRepository, caller: RelayCaller, taskId: string): Promise<SunoAnswer> {
  const row = await repository.ownedByTaskId(caller.user.id, taskId);
  return row ? sunoSuccess(toSunoTaskView(row)) : sunoError(404, 'task_not_exist');
}

/** POST /suno/fetch `{ids}`: the caller's tasks among those ids (others are simply absent). */
export async function fetchSunoTasks(repository: SunoRepository, caller: RelayCaller, body: Record<string, unknown>): Promise<SunoAnswer> {
  const ids = body.ids ?? [];
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string')) return sunoError(400, 'invalid_request', 'ids must be a list of task ids');
  const rows = await repository.ownedByTaskIds(caller.user.id, ids as string[]);
  return sunoSuccess(rows.map(toSunoTaskView));
}
