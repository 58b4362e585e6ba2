import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RelayCaller } from '../../relay/pipeline/caller-auth.ts';
import { authenticateTaskCaller } from '../task-caller.ts';
import { pathWithoutQuery, type TaskRelayContext } from '../task-relay-context.ts';
import { callerRefusal, jsonObjectBody } from '../task-request.ts';
import { modePrefixes, submitRoutes } from './midjourney-actions.ts';
import { mjError, type MjAnswer } from './midjourney-answer.ts';
import { fetchImageSeed, fetchMidjourneyTask, listMidjourneyTasks, proxyMidjourneyImage } from './midjourney-reads.ts';
import { submitMidjourney } from './midjourney-submit.ts';
import type { MidjourneyRepository } from './midjourney.repository.ts';

/** Authenticates, runs the work and answers in midjourney-proxy's shape, key refusals included. */
async function answerMj(
  context: TaskRelayContext,
  request: FastifyRequest,
  reply: FastifyReply,
  work: (caller: RelayCaller) => Promise<MjAnswer>,
): Promise<FastifyReply> {
  let answer: MjAnswer;
  try {
    answer = await work(await authenticateTaskCaller(context.services, request));
  } catch (error) {
    const refusal = callerRefusal(request, error);
    if (!refusal) throw error;
    answer = mjError(refusal.status, refusal.message);
  }
  return reply.status(answer.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(answer.body));
}

const idParam = (request: FastifyRequest): string => String((request.params as { id?: unknown }).id ?? '');

/**
 * The Midjourney relay: every submit route under `/mj` and the mode prefixes (`/mj-fast/mj/…`), task
 * fetch, list-by-condition and image seed for key holders, and the open image proxy.
 */
export function registerMidjourneyRoutes(app: FastifyInstance, context: TaskRelayContext, repository: MidjourneyRepository): void {
  for (const modePrefix of modePrefixes) {
    for (const route of submitRoutes) {
      app.post(`${modePrefix}${route.path}`, (request, reply) =>
        answerMj(context, request, reply, async (caller) => {
          const body = jsonObjectBody(request);
          if (!body) return mjError(400, 'bind_request_body_failed');
          return submitMidjourney(context, repository, { caller, route, modePrefix, body, requestId: request.id, requestPath: pathWithoutQuery(request.url) });
        }),
      );
    }
    app.get(`${modePrefix}/mj/task/:id/fetch`, (request, reply) =>
      answerMj(context, request, reply, (caller) => fetchMidjourneyTask(context, repository, caller, idParam(request))),
    );
    app.get(`${modePrefix}/mj/task/:id/image-seed`, (request, reply) =>
      answerMj(context, request, reply, (caller) => fetchImageSeed(context, repository, caller, idParam(request))),
    );
    app.post(`${modePrefix}/mj/task/list-by-condition`, (request, reply) =>
      answerMj(context, request, reply, async (caller) => {
        const body = jsonObjectBody(request);
        if (!body) return mjError(400, 'bind_request_body_failed');
        return listMidjourneyTasks(context, repository, caller, body);
      }),
    );
    app.get(`${modePrefix}/mj/image/:id`, async (request, reply) => {
      const image = await proxyMidjourneyImage(context, repository, idParam(request));
      if (!image.ok) return reply.status(image.status).send({ error: image.error });
      const type = image.response.headers['content-type'];
      return reply
        .status(200)
        .header('content-type', (Array.isArray(type) ? type[0] : type) || 'image/jpeg')
        .send(image.response.body);
    });
  }
}
