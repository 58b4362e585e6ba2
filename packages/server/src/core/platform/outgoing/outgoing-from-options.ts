import type { OptionStore } from '../../../domain/options/option-store.ts';
import { readFetchSetting } from './fetch-setting.ts';
import { OutgoingRequests, type ResolveName } from './outgoing-requests.ts';

/** The server's outgoing requests under the fetch_setting options, re-read whenever one of them changes (on any instance). */
export function outgoingRequestsFor(options: OptionStore, resolve?: ResolveName): OutgoingRequests {
  let setting = readFetchSetting(options);
  const outgoing = new OutgoingRequests(() => setting, resolve);
  options.onChange((key) => {
    if (!key.startsWith('fetch_setting.')) return;
    setting = readFetchSetting(options);
    outgoing.renew();
  });
  return outgoing;
}
