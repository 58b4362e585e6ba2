import { chatAppSchemes, isChatLink, isImageSource, isWebLink, type OptionKey } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { optionMessages } from './option.messages.ts';

/**
 * Links a browser opens or the server calls: only http(s), so a stored `javascript:` or `data:` link
 * cannot run in a visitor's page (the console also refuses to render one that is already stored).
 */
const webLinkKeys: ReadonlySet<OptionKey> = new Set([
  'ServerAddress',
  'WorkerUrl',
  'PayAddress',
  'CustomCallbackAddress',
  'WeChatServerAddress',
  'TopUpLink',
  'ChatLink',
  'ChatLink2',
]);
/** Images the console loads: http(s), or a path on the console's own origin. */
const imageKeys: ReadonlySet<OptionKey> = new Set(['Logo', 'WeChatAccountQRCodeImageURL']);

/** Refuses a link-valued option whose scheme a browser should not follow; empty clears the option. */
export function assertSafeLinkOption(key: OptionKey, value: string): void {
  if (value === '') return;
  if (webLinkKeys.has(key) && !isWebLink(value)) throw new AppError(optionMessages.notWebLink, { params: { key } });
  if (imageKeys.has(key) && !isImageSource(value)) throw new AppError(optionMessages.notImageSource, { params: { key } });
  if (key === 'Chats') assertSafeChatLinks(value);
}

/**
 * Every link in `Chats` must be a web page or an allowed desktop app. Entries of another shape are
 * left alone: the console reports those as a broken configuration (the spec's chat-link message).
 */
function assertSafeChatLinks(value: string): void {
  const parsed = safeParseJson(value);
  if (!parsed.ok || !Array.isArray(parsed.value)) return;
  for (const entry of parsed.value) {
    if (typeof entry !== 'object' || entry === null) continue;
    for (const [name, link] of Object.entries(entry)) {
      if (typeof link === 'string' && !isChatLink(link)) {
        throw new AppError(optionMessages.unsafeChatLink, { params: { name, schemes: chatAppSchemes.map((scheme) => `${scheme}://`).join(', ') } });
      }
    }
  }
}
