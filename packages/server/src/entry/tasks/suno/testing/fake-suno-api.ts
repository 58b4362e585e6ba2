import { FakeVendorServer, fixture, type VendorAnswer, type VendorRequest } from '../../testing/fake-vendor-server.ts';

const fixtures = new URL('../__fixtures__/', import.meta.url);

interface FakeSong {
  readonly id: string;
  readonly action: string;
  step: number;
  readonly fails: boolean;
  /** Unix seconds, as the Suno API reports its times. */
  readonly submittedAt: number;
}

/**
 * The Suno API new-api relays to, in its own wire format from recorded answers: submit answers
 * `{code: "success", data: <task id>}` (or an error for a prompt containing "banned"), and every batch
 * `POST /suno/fetch` moves each task on: IN_PROGRESS 50% → SUCCESS with audio URLs, or FAILURE for a
 * prompt containing "fail". Wrong key → 401.
 */
export class FakeSunoApi extends FakeVendorServer {
  readonly songs = new Map<string, FakeSong>();
  private counter = 0;

  readonly key: string;

  constructor(key: string) {
    super((request) => this.answer(request));
    this.key = key;
  }

  private answer(request: VendorRequest): VendorAnswer {
    if (request.headers.authorization !== `Bearer ${this.key}`) return { status: 401, json: { code: 'unauthorized', message: 'invalid key', data: null } };
    const body = (request.body ?? {}) as Record<string, unknown>;
    const submit = /^\/suno\/submit\/(music|lyrics)$/.exec(request.path);
    if (request.method === 'POST' && submit) {
      const prompt = String(body.prompt ?? body.gpt_description_prompt ?? '');
      if (prompt.includes('banned')) return { status: 400, json: fixture(fixtures, 'submit-error.json') };
      this.counter += 1;
      const id = `736a6f88-bd29-4b1e-b110-${String(this.counter).padStart(12, '0')}`;
      this.songs.set(id, { id, action: (submit[1] ?? '').toUpperCase(), step: 0, fails: prompt.includes('fail'), submittedAt: Math.floor(Date.now() / 1000) });
      return { status: 200, json: { ...fixture(fixtures, 'submit-success.json'), data: id } };
    }
    if (request.method === 'POST' && request.path === '/suno/fetch') {
      const ids = Array.isArray(body.ids) ? (body.ids as string[]) : [];
      return { status: 200, json: { code: 'success', message: '', data: ids.flatMap((id) => (this.songs.has(id) ? [this.advance(id)] : [])) } };
    }
    return { status: 404, json: { code: 'not_found', message: 'not found', data: null } };
  }

  private advance(id: string): unknown {
    const song = this.songs.get(id);
    if (!song) return {};
    song.step += 1;
    const name = song.step === 1 ? 'fetch-in-progress.json' : song.fails ? 'fetch-failure.json' : 'fetch-success.json';
    const recorded = (fixture(fixtures, name).data as Array<Record<string, unknown>>)[0] ?? {};
    // The recorded answers carry the recording day's times; a live task reports its own.
    const times = { submit_time: song.submittedAt, start_time: song.submittedAt, finish_time: song.step === 1 ? 0 : Math.floor(Date.now() / 1000) };
    return { ...recorded, ...times, task_id: id, action: song.action };
  }
}
