import { useState } from 'react';
import { useApp, useAppContext } from '../../store/use-app.js';
import { parseTags } from '../../view-model/runs.js';
import { useRunControls } from '../header/RunControls.js';

/** Start (name, tags), phase and stop of a run, and a recording to compare with. */
export function RunControlsBar() {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const controls = useRunControls();
  // A serve-mode viewer may not keep recordings in the server's memory (importRecording is a change).
  const canImport = useApp((s) => s.appInfo?.changesEnabled !== false);
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const [phase, setPhase] = useState('');
  const importFile = async (file: File) => {
    try {
      const runs = await api.importRecording({ name: file.name, content: await file.text() });
      store.setUi({ error: null, importedRuns: [...store.getState().ui.importedRuns, ...runs] });
    } catch (err) {
      store.setUi({ error: `import ${file.name}: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  return (
    <div className="toolbar runs-toolbar" data-testid="run-controls" data-running={controls.running?.id ?? ''}>
      {controls.running ? (
        <>
          <span className="run-live" data-testid="run-running">
            ● {controls.running.name} · {controls.running.phases.at(-1)?.name ?? 'no phase'}
          </span>
          <input aria-label="phase name" placeholder="next phase (m)" value={phase} onChange={(e) => setPhase(e.target.value)} />
          <button type="button" data-testid="run-phase" onClick={() => void controls.mark(phase).then(() => setPhase(''))}>
            Mark phase (m)
          </button>
          <button type="button" data-testid="run-stop" onClick={() => void controls.stop()}>
            Stop run (r)
          </button>
        </>
      ) : (
        <>
          <input aria-label="run name" placeholder="run name" value={name} onChange={(e) => setName(e.target.value)} />
          <input aria-label="run tags" placeholder="tags: compress=on nodes=8" size={30} value={tags} onChange={(e) => setTags(e.target.value)} />
          <button type="button" data-testid="run-start" disabled={clusterId === null} onClick={() => void controls.start(name, parseTags(tags)).then(() => setName(''))}>
            Start run (r)
          </button>
        </>
      )}
      <span className="spacer" />
      {canImport && (
      <label className="file-button">
        Compare with a recording…
        <input type="file" accept=".jsonl,.json,.ndjson,text/plain" onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])} />
      </label>
      )}
    </div>
  );
}
