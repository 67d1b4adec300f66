import { useEffect, useState } from 'react';
import type { Run } from '../../contract.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { parseTags } from '../../view-model/runs.js';
import { useRunControls } from '../header/RunControls.js';
import { postRecording, uploadRecording, type UploadProgress } from './recording-upload.js';

const byId = (runs: readonly Run[]): Run[] => [...new Map(runs.map((r) => [r.id, r])).values()];
const mib = (bytes: number): string => (bytes / 1024 ** 2).toFixed(1);

/** The file being imported: its bytes going up, then the server reading them. */
function ImportProgress({ name, progress }: { name: string; progress: UploadProgress }) {
  const total = progress.total || 1;
  return (
    <span className="import-progress" data-testid="import-progress" data-stage={progress.stage} title={name}>
      <span className="import-name">{progress.stage === 'uploading' ? 'uploading' : 'reading'} {name}</span>
      <progress max={total} value={progress.done} />
      <span className="import-figures">
        {mib(progress.done)} / {mib(progress.total)} MiB · {Math.floor((100 * progress.done) / total)} %
      </span>
    </span>
  );
}

/** Start (name, tags), phase and stop of a run, and a recording to compare with. */
export function RunControlsBar() {
  const { api, store } = useAppContext();
  const clusterId = useApp((s) => s.shown.clusterId);
  const controls = useRunControls();
  // A serve-mode viewer may not keep recordings in the server's memory (an upload is a change).
  const canImport = useApp((s) => s.appInfo?.changesEnabled !== false);
  const [name, setName] = useState('');
  const [tags, setTags] = useState('');
  const [phase, setPhase] = useState('');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [importing, setImporting] = useState('');
  // The engine keeps imported runs, so a reloaded page (or another viewer) lists them again.
  useEffect(() => {
    void api.listImportedRuns({}).then(
      (runs) => store.setUi({ importedRuns: byId([...runs, ...store.getState().ui.importedRuns]) }),
      () => undefined,
    );
  }, [api, store]);
  const importFile = async (file: File) => {
    setImporting(file.name);
    setProgress({ stage: 'uploading', done: 0, total: file.size });
    try {
      // Streamed to the same handler either way: over HTTP in serve mode, to the app:// origin on the desktop.
      const runs = await (window.ndbtop === undefined ? uploadRecording : postRecording)(file, setProgress);
      store.setUi({ error: null, importedRuns: byId([...store.getState().ui.importedRuns, ...runs]) });
    } catch (err) {
      store.setUi({ error: `import ${file.name}: ${err instanceof Error ? err.message : String(err)}` });
    } finally {
      setProgress(null);
    }
  };
  const pick = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    // Cleared, so picking the same file again (a second import of it) is a change the browser reports.
    input.value = '';
    if (file) void importFile(file);
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
      {/* One import at a time: its progress takes the button's place until it is done. */}
      {progress ? (
        <ImportProgress name={importing} progress={progress} />
      ) : (
        canImport && (
          <label className="file-button">
            Compare with a recording…
            <input type="file" data-testid="import-recording" onChange={(e) => pick(e.target)} />
          </label>
        )
      )}
    </div>
  );
}
