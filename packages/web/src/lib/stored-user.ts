/**
 * The logged-in user as the console remembers it between page loads (the classic console keeps it in
 * localStorage under `user`). The session itself is the HttpOnly cookie; this copy only drives the
 * menu, the route guard and the `New-Api-User` header.
 */
export interface StoredUser {
  id: number;
  username: string;
  display_name?: string;
  role: number;
  status?: number;
  group?: string;
}

const storageKey = 'user';

export function readStoredUser(): StoredUser | null {
  const raw = localStorage.getItem(storageKey);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredUser>;
    return typeof parsed.id === 'number' && typeof parsed.role === 'number' ? (parsed as StoredUser) : null;
  } catch {
    return null;
  }
}

export function storeUser(user: StoredUser): void {
  localStorage.setItem(storageKey, JSON.stringify(user));
  window.dispatchEvent(new Event('switchboard:user'));
}

export function clearStoredUser(): void {
  localStorage.removeItem(storageKey);
  window.dispatchEvent(new Event('switchboard:user'));
}
