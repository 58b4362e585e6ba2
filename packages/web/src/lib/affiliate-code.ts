/** The inviter's code from a `?aff=` link, kept until registration (classic key `aff`). */
const storageKey = 'aff';

export function rememberAffiliateCode(search: URLSearchParams): void {
  const code = search.get('aff');
  if (code) localStorage.setItem(storageKey, code);
}

export function storedAffiliateCode(): string {
  return localStorage.getItem(storageKey) ?? '';
}
