import { App, Input } from 'antd';
import { useCallback } from 'react';
import { copyText } from '../lib/copy-text.ts';

export interface CopyMessages {
  /** Toast after a successful copy. */
  copied: string;
  /** Title of the dialog that shows the text when the browser refuses to copy. */
  failed: string;
}

/**
 * Copies text and confirms with a toast; when the browser refuses (insecure origin, no permission) it
 * shows the text in a dialog to copy by hand, as the spec asks.
 */
export function useCopyWithFallback(messages: CopyMessages): (text: string) => Promise<void> {
  const { message, modal } = App.useApp();
  return useCallback(
    async (text: string) => {
      if (await copyText(text)) {
        void message.success(messages.copied);
        return;
      }
      modal.info({ title: messages.failed, content: <Input.TextArea value={text} readOnly autoSize={{ minRows: 2, maxRows: 12 }} />, width: 560 });
    },
    [message, modal, messages.copied, messages.failed],
  );
}
