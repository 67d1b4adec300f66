import type { NdbinfoFeature } from '../../contract.js';
import { useApp } from '../../store/use-app.js';
import { missingFeatures } from '../../view-model/inside/release-notes.js';

/** What this SQL node's release does not give among the figures of `keys`, and why, in the engine's words. */
export function ReleaseNotes({ keys }: { keys: readonly NdbinfoFeature['key'][] }) {
  const view = useApp((s) => s.shown.ndbinfo);
  const missing = missingFeatures(view, keys);
  if (missing.length === 0) return null;
  return (
    <ul className="release-notes muted" data-testid="release-notes">
      {missing.map((f) => (
        <li key={f.key} data-feature={f.key}>
          {f.why}
        </li>
      ))}
    </ul>
  );
}
