import { useSyncExternalStore } from 'react';

const QUERY = '(prefers-color-scheme: light)';

function subscribe(listener: () => void): () => void {
  const media = window.matchMedia(QUERY);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

/** The browser's (the OS's) colour scheme, following it live when the user switches. */
export function useColorScheme(): 'dark' | 'light' {
  return useSyncExternalStore(subscribe, () => (window.matchMedia(QUERY).matches ? 'light' : 'dark'));
}
