import type { TokenView } from '@switchboard/contracts';
import { App, Input } from 'antd';
import { createElement } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { revealTokenKey } from '../api/reveal-token-key.ts';
import { verifySecondFactor } from '../api/verify-second-factor.ts';
import { fullKey } from './full-key.ts';

/** The server masks keys (`abcd**********wxyz`) for owners with a second factor; those are revealed on demand. */
export function isMaskedKey(token: Pick<TokenView, 'key'>): boolean {
  return token.key.includes('*');
}

/**
 * The full `sk-` key of a token: as listed, or, when masked, from the reveal route; if the server
 * wants a fresh second factor first, asks for the code, verifies it and tries once more.
 * Rejects when the user cancels or a call fails (the caller shows the error).
 */
export function useRevealKey(): (token: TokenView) => Promise<string> {
  const { t } = useTranslation('tokens');
  const { modal } = App.useApp();

  const askCode = () =>
    new Promise<string>((resolve, reject) => {
      let code = '';
      modal.confirm({
        title: t('reveal.title'),
        content: createElement(Input, {
          autoFocus: true,
          maxLength: 16,
          autoComplete: 'one-time-code',
          placeholder: t('reveal.placeholder'),
          'aria-label': t('reveal.placeholder'),
          'data-testid': 'reveal-key-code',
          onChange: (event: { target: { value: string } }) => {
            code = event.target.value;
          },
        }),
        onOk: () => resolve(code.trim()),
        onCancel: () => reject(new Error(t('reveal.cancelled'))),
      });
    });

  return async (token) => {
    if (!isMaskedKey(token)) return fullKey(token);
    try {
      return fullKey({ key: await revealTokenKey(token.id) });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'verification_required')) throw error;
    }
    await verifySecondFactor(await askCode());
    return fullKey({ key: await revealTokenKey(token.id) });
  };
}
