import { FakeVendorServer, fixture, type VendorAnswer, type VendorRequest } from '../../testing/fake-vendor-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

/** A one-pixel PNG: what the fake's image host serves. */
export const fakePng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

interface FakeTask {
  readonly id: string;
  readonly action: string;
  readonly prompt: string;
  /** Polls seen: each `list-by-condition` moves the task one step on. */
  step: number;
  readonly fails: boolean;
}

/**
 * midjourney-proxy (and its Plus variant) in its own wire format, from recorded answers: a submit
 * answers code 1 (or 24 for a banned prompt), and every `list-by-condition` moves each task one step
 * on: SUBMITTED → IN_PROGRESS 50% → SUCCESS with a grid image and U/V buttons, or FAILURE for a
 * prompt containing "fail". Wrong `mj-api-secret` → 401. Serves the images it names.
 */
export class FakeMidjourneyProxy extends FakeVendorServer {
  readonly tasks = new Map<string, FakeTask>();
  private nextId = 1_320_098_173_412_546n;

  readonly secret: string;

  constructor(secret: string) {
    super((request) => this.answer(request));
    this.secret = secret;
  }

  private answer(request: VendorRequest): VendorAnswer {
    if (request.method === 'GET' && request.path.startsWith('/attachments/')) return { status: 200, bytes: fakePng, contentType: 'image/png' };
    if (request.headers['mj-api-secret'] !== this.secret) return { status: 401, json: { code: 4, description: 'invalid mj-api-secret' } };
    const path = request.path.replace(/^\/mj-(fast|turbo|relax)/, '');
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (request.method === 'POST' && path.startsWith('/mj/submit/')) return this.submit(path.slice('/mj/submit/'.length), body);
    if (request.method === 'POST' && path === '/mj/insight-face/swap') return this.submit('swap', body);
    if (request.method === 'POST' && path === '/mj/task/list-by-condition') {
      const ids = Array.isArray(body.ids) ? (body.ids as string[]) : [];
      return { status: 200, json: ids.flatMap((id) => (this.tasks.has(id) ? [this.advance(id)] : [])) };
    }
    const seed = /^\/mj\/task\/([^/]+)\/image-seed$/.exec(path);
    if (request.method === 'GET' && seed) return { status: 200, json: fixture(fixtures, 'image-seed.json') };
    return { status: 404, json: { code: 4, description: 'not found' } };
  }

  private submit(kind: string, body: Record<string, unknown>): VendorAnswer {
    const prompt = typeof body.prompt === 'string' ? body.prompt : '';
    if (prompt.includes('banned')) return { status: 200, json: fixture(fixtures, 'submit-banned.json') };
    const id = String(this.nextId++);
    const action = kind === 'imagine' ? 'IMAGINE' : kind === 'action' ? actionOf(String(body.customId ?? '')) : kind.toUpperCase();
    this.tasks.set(id, { id, action, prompt, step: 0, fails: prompt.includes('fail') });
    return { status: 200, json: { ...fixture(fixtures, 'submit-success.json'), result: id } };
  }

  private advance(id: string): Record<string, unknown> {
    const task = this.tasks.get(id);
    if (!task) return {};
    task.step += 1;
    const now = Date.now();
    const base = { id, action: task.action, prompt: task.prompt, promptEn: task.prompt, submitTime: now - 2000, startTime: now - 1000 };
    if (task.step === 1)
      return { ...fixture(fixtures, 'task-in-progress.json'), ...base, finishTime: 0, imageUrl: `${this.baseUrl}/attachments/${id}-preview.png` };
    if (task.fails) return { ...fixture(fixtures, 'task-failure.json'), ...base, finishTime: now };
    return { ...fixture(fixtures, 'task-success.json'), ...base, finishTime: now, imageUrl: `${this.baseUrl}/attachments/${id}.png` };
  }
}

function actionOf(customId: string): string {
  if (customId.includes('upsample')) return 'UPSCALE';
  if (customId.includes('variation')) return 'VARIATION';
  return 'REROLL';
}
