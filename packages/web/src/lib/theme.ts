import { useSyncExternalStore } from 'react';

/** Light or dark console, remembered in localStorage (`theme`) and mirrored on `<html data-theme>`. */
export type ThemeMode = 'light' | 'dark';

const storageKey = 'theme';
const themeEvent = 'switchboard:theme';

function readTheme(): ThemeMode {
  return localStorage.getItem(storageKey) === 'dark' ? 'dark' : 'light';
}

export function applyStoredTheme(): void {
  const mode = readTheme();
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
}

export function setTheme(mode: ThemeMode): void {
  localStorage.setItem(storageKey, mode);
  applyStoredTheme();
  window.dispatchEvent(new Event(themeEvent));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(themeEvent, onChange);
  return () => window.removeEventListener(themeEvent, onChange);
}

export function useTheme(): ThemeMode {
  return useSyncExternalStore(subscribe, readTheme);
}
