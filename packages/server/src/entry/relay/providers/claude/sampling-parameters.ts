/** The sampling fields of a Messages request, whether converted from OpenAI or sent by the caller. */
export interface SamplingFields {
  temperature?: number | null;
  top_p?: number | null;
  top_k?: number | null;
  thinking?: { type: string } | null;
}

const isSet = (value: number | null | undefined): value is number => value !== undefined && value !== null;

/**
 * Leaves only the sampling parameters Claude accepts together, editing `body` in place:
 * - with thinking on, temperature and top_k are refused and top_p is allowed only from 0.95 to 1;
 * - without thinking, newer models (Sonnet 4.5, Haiku 4.5, Opus 4.1 on) refuse temperature and
 *   top_p together, and Anthropic advises setting one; temperature, the one every caller means, stays.
 * What is dropped is reported in `warnings`.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#feature-compatibility
 * @see https://docs.anthropic.com/en/docs/about-claude/models/migrating-to-claude-4
 */
export function reconcileSampling(body: SamplingFields, warnings: string[]): void {
  const thinking = body.thinking !== undefined && body.thinking !== null && body.thinking.type !== 'disabled';
  if (thinking) {
    if (isSet(body.temperature)) warnings.push('temperature dropped: not allowed with thinking');
    if (isSet(body.top_k)) warnings.push('top_k dropped: not allowed with thinking');
    delete body.temperature;
    delete body.top_k;
    if (isSet(body.top_p) && (body.top_p < 0.95 || body.top_p > 1)) {
      warnings.push('top_p dropped: only 0.95 to 1 is allowed with thinking');
      delete body.top_p;
    }
    return;
  }
  if (isSet(body.temperature) && isSet(body.top_p)) {
    warnings.push('top_p dropped: Claude takes temperature or top_p, not both');
    delete body.top_p;
  }
}
