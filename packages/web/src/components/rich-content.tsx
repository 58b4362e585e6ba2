import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/**
 * The embedded page may run scripts and open links in new tabs, nothing more: it gets an opaque
 * origin (no cookies or storage, so it cannot act on a visitor's session with its own site), no
 * forms, no navigating the console away, no dialogs. With the referrer policy it is not told which
 * console page framed it.
 */
const frameSandbox = 'allow-scripts allow-popups';

/**
 * Administrator-written content (home page, about, notice): a https:// link is shown as an embedded
 * page, anything else as Markdown (HTML allowed) — always sanitised, since every visitor sees it.
 */
export function RichContent({ content, title }: { content: string; title: string }) {
  const trimmed = content.trim();
  const isLink = /^https:\/\/\S+$/.test(trimmed);
  const html = useMemo(() => (isLink ? '' : DOMPurify.sanitize(marked.parse(trimmed, { async: false }))), [isLink, trimmed]);
  if (isLink) {
    return (
      <iframe
        src={trimmed}
        title={title}
        sandbox={frameSandbox}
        referrerPolicy="no-referrer"
        style={{ width: '100%', height: 'calc(100vh - 140px)', border: 'none' }}
      />
    );
  }
  return <div className="rich-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
