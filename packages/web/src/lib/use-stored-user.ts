import { useMemo, useSyncExternalStore } from 'react';
import { Role } from '@switchboard/contracts';
import { readStoredUser, type StoredUser } from './stored-user.ts';

const userEvent = 'switchboard:user';

function subscribe(onChange: () => void): () => void {
  window.addEventListener(userEvent, onChange);
  // Another tab logging in or out changes localStorage there; follow it here too.
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(userEvent, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The stored user, re-rendering on login, logout and changes from other tabs. */
export function useStoredUser(): StoredUser | null {
  // The raw string is the snapshot: it is stable between changes, a parsed object would not be.
  const raw = useSyncExternalStore(subscribe, () => localStorage.getItem('user'));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `raw` is the trigger; the parse reads the same storage.
  return useMemo(() => readStoredUser(), [raw]);
}

export function isAdmin(user: Pick<StoredUser, 'role'> | null | undefined): boolean {
  return (user?.role ?? 0) >= Role.admin;
}

export function isRoot(user: Pick<StoredUser, 'role'> | null | undefined): boolean {
  return (user?.role ?? 0) >= Role.root;
}
