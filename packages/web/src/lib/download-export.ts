import i18n from './i18n.ts';
import { readStoredUser } from './stored-user.ts';

export type ExportQuery = Record<string, string | number>;

/** The server's message from a refused export (an envelope), or the HTTP status. */
async function refusal(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON: the status says enough.
  }
  return `HTTP ${response.status}`;
}

/**
 * Downloads a CSV export (`GET /api/export/…`) with the list's filters, its headers in the console's
 * language and its times at the browser's offset. A link cannot carry the New-Api-User header the
 * console API requires, so the file is fetched and handed to the browser as a download.
 */
export async function downloadExport(path: string, query: ExportQuery = {}): Promise<void> {
  const language = i18n.language === 'en' ? 'en' : 'zh';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) params.set(name, String(value));
  params.set('lang', language);
  params.set('utc_offset', String(-new Date().getTimezoneOffset()));
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', 'Accept-Language': language === 'en' ? 'en' : 'zh-CN' };
  const user = readStoredUser();
  if (user) headers['New-Api-User'] = String(user.id);
  const response = await fetch(`${path}?${params.toString()}`, { headers, credentials: 'same-origin' });
  if (!response.ok) throw new Error(await refusal(response));
  const filename = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download by the next task; the blob can go then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
