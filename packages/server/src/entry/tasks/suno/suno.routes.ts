import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RelayCaller } from '../../relay/pipeline/caller-auth.ts';
import { authenticateTaskCaller } from '../task-caller.ts';
import { pathWithoutQuery, type TaskRelayContext } from '../task-relay-context.ts';
import { callerRefusal, jsonObjectBody } from '../task-request.ts';
import { sunoError, type SunoAnswer } from './suno-answer.ts';
import { fetchSunoTask, fetchSunoTasks } from './suno-reads.ts';
import { submitSuno } from './suno-submit.ts';
import type { SunoRepository } from './suno.repository.ts';

async function answerSuno(
  context: TaskRelayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (caller: RelayCaller) => Promise<SunoAnswer>,
): Promise<FastifyReply> {
  let answer: SunoAnswer;
  try {
    answer = await work(await authenticateTaskCaller(context.services, request));
  } catch (error) {
    const refusal = callerRefusal(request, error);
    if (!refusal) throw error;
    answer = sunoError(refusal.status, refusal.code, refusal.message);
  }
  return reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(answer.body));
}

/** The Suno relay: submit music or lyrics, and fetch tasks (one or a batch) from the database. */
export function registerSunoRoutes(app: FastifyInstance, context: TaskRelayContext, repository: SunoRepository): void {
  app.post('/suno/submit/:action', (request, reply) =>
    answerSuno(context, request, reply, async (caller) => {
      const body = jsonObjectBody(request);
      if (!body) return sunoError(400, 'invalid_request', 'the body must be a JSON object');
      const action = String((request.params as { action?: unknown }).action ?? '');
      return submitSuno(context, repository, { caller, action, body, requestId: request.id, requestPath: pathWithoutQuery(request.url) });
    }),
  );
  app.post('/suno/fetch', (request, reply) =>
    answerSuno(context, request, reply, async (caller) => {
      const body = jsonObjectBody(request);
      if (!body) return sunoError(400, 'invalid_request', 'the body must be a JSON object');
      return fetchSunoTasks(repository, caller, body);
    }),
  );
  app.get('/suno/fetch/:id', (request, reply) =>
    answerSuno(context, request, reply, (caller) => fetchSunoTask(repository, caller, String((request.params as { id?: unknown }).id ?? ''))),
  );
}
