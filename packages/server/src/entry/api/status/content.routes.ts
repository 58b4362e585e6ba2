import type { OptionKey } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import { ok } from '../../../core/http/envelope.ts';

/**
 * The classic API's public, option-backed texts: the console's home and about pages and the notice
 * read them before anyone logs in, so they are public like the status. `data` is the stored value as
 * is ('' when unset), exactly what new-api answers.
 */
const contentRoutes: ReadonlyArray<readonly [path: string, option: OptionKey]> = [
  ['/api/notice', 'Notice'],
  ['/api/about', 'About'],
  ['/api/home_page_content', 'HomePageContent'],
  // The registration page shows these before anyone has an account.
  ['/api/user-agreement', 'legal.user_agreement'],
  ['/api/privacy-policy', 'legal.privacy_policy'],
];

/** What the public texts read: their options. */
export interface ContentDependencies {
  readonly options: OptionStore;
}

export function registerContentRoutes(app: FastifyInstance, context: ContentDependencies): void {
  for (const [path, option] of contentRoutes) {
    app.get(path, { config: { access: 'public' } }, async () => ok(context.options.get(option)));
  }
}
