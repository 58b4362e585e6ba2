import type { OpenAIUrlCitation } from '@switchboard/contracts';

/** A citation as Anthropic attaches it to a text block (or streams it in a `citations_delta`). */
interface ClaudeCitation {
  readonly type?: string | null;
  readonly url?: string | null;
  readonly title?: string | null;
}

/**
 * Anthropic citations → OpenAI `url_citation` annotations over the span `[start, end)` of the
 * answer's content that the cited text block occupies. Only web citations (search and fetch results)
 * have a URL; citations of the caller's own documents (`char_location`, `page_location`,
 * `content_block_location`, `search_result_location`) have none, and OpenAI's chat format has no
 * place for them: they are dropped (docs/format-conversions.md).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations
 */
export function urlCitations(citations: unknown, start: number, end: number): OpenAIUrlCitation[] {
  if (!Array.isArray(citations)) return [];
  const annotations: OpenAIUrlCitation[] = [];
  for (const citation of citations as (ClaudeCitation | null)[]) {
    if (typeof citation?.url !== 'string' || !citation.url) continue;
    annotations.push({ type: 'url_citation', url_citation: { url: citation.url, title: citation.title ?? '', start_index: start, end_index: end } });
  }
  return annotations;
}
