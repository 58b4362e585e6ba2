import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/**
 * Administrator-written content (home page, about, notice): a https:// link is shown as an embedded
 * page, anything else as Markdown (HTML allowed) — always sanitised, since every visitor sees it.
 */
export function RichContent({ content, title }: { content: string; title: string }) {
  const trimmed = content.trim();
  const isLink = /^https:\/\/\S+$/.test(trimmed);
  const html = useMemo(() => (isLink ? '' : DOMPurify.sanitize(marked.parse(trimmed, { async: false }))), [isLink, trimmed]);
  if (isLink) return <iframe src={trimmed} title={title} style={{ width: '100%', height: 'calc(100vh - 140px)', border: 'none' }} />;
  return <div className="rich-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
