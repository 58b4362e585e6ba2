import { Avatar, Flex, Spin, Tag, theme, Typography } from 'antd';
import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from '../lib/chat-types.ts';
import './markdown.css';

/** One message; the assistant's Markdown is rendered and sanitised, a failure is shown in red. */
export function MessageBubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('playground');
  const { token } = theme.useToken();
  const mine = message.role === 'user';
  const html = useMemo(
    () => (mine || message.status === 'error' ? '' : DOMPurify.sanitize(marked.parse(message.content, { async: false, gfm: true, breaks: true }))),
    [message.content, message.status, mine],
  );
  return (
    <Flex gap={8} justify={mine ? 'flex-end' : 'flex-start'} align="flex-start" data-role={message.role} data-status={message.status}>
      {!mine && <Avatar style={{ background: token.colorPrimary, flex: 'none' }}>AI</Avatar>}
      <div
        style={{
          maxWidth: '80%',
          padding: '8px 12px',
          borderRadius: token.borderRadiusLG,
          background: mine ? token.colorPrimaryBg : message.status === 'error' ? token.colorErrorBg : token.colorFillTertiary,
          overflowWrap: 'anywhere',
        }}
      >
        {message.status === 'loading' && <Spin size="small" />}
        {mine && <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{message.content}</Typography.Text>}
        {!mine && message.status === 'error' && (
          <Typography.Text type="danger" style={{ whiteSpace: 'pre-wrap' }}>
            {message.content || t('errors.empty')}
          </Typography.Text>
        )}
        {!mine && message.status !== 'error' && message.status !== 'loading' && (
          <div className="playground-markdown" dangerouslySetInnerHTML={{ __html: html }} />
        )}
        {message.status === 'incomplete' && <Tag style={{ marginTop: 4 }}>{t('status.incomplete')}</Tag>}
      </div>
      {mine && <Avatar style={{ flex: 'none' }}>{t('you')}</Avatar>}
    </Flex>
  );
}
