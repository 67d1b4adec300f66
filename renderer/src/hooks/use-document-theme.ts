import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

/**
 * The theme the page is drawn in (`data-theme` on the root, set by App), for what reads its colours from CSS and
 * draws them itself (canvas): it changes only once the attribute has, so the colours read are the new ones.
 */
export function useDocumentTheme(): string {
  return useSyncExternalStore(subscribe, () => document.documentElement.dataset.theme ?? '');
}
