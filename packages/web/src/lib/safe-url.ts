import { isChatLink, isWebLink } from '@switchboard/contracts';

/**
 * Links the administrator configured, checked where the console renders them. The server refuses
 * unsafe ones when they are saved, but a value stored before that check (or imported from another
 * gateway's database) must still never become a `javascript:` or `data:` link in a visitor's page.
 */

/** The link when it is an absolute http(s) URL, else undefined (nothing to render). */
export function safeWebLink(url: string | undefined): string | undefined {
  return url && isWebLink(url) ? url : undefined;
}

/** The link when it is a web page or an allowed desktop chat app (cherrystudio://…), else undefined. */
export function safeChatLink(url: string | undefined): string | undefined {
  return url && isChatLink(url) ? url : undefined;
}
