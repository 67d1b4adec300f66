import { useMemo, useState } from 'react';
import { RunCompare } from '../components/runs/RunCompare.js';
import { RunControlsBar } from '../components/runs/RunControlsBar.js';
import { RunSummary } from '../components/runs/RunSummary.js';
import { RunTable } from '../components/runs/RunTable.js';
import { useRunReports } from '../hooks/use-run-reports.js';
import { useApp, useAppContext } from '../store/use-app.js';

export function RunsView() {
  const sessionRuns = useApp((s) => s.shown.runs);
  const { store } = useAppContext();
  const imported = useApp((s) => s.ui.importedRuns);
  const picked = useApp((s) => s.ui.comparedRunIds);
  const [chosen, setChosen] = useState<string | null>(null);
  const runs = useMemo(() => [...imported, ...sessionRuns], [imported, sessionRuns]);
  const shown = chosen ?? sessionRuns.at(-1)?.id ?? null;
  const summary = useRunReports(shown ? [shown] : [], 'transactions', 'start');
  const pick = (id: string) => store.setUi({ comparedRunIds: picked.includes(id) ? picked.filter((x) => x !== id) : [...picked, id] });
  return (
    <div className="view runs-view">
      <RunControlsBar />
      <h2>Runs</h2>
      <RunTable runs={runs} picked={picked} onPick={pick} shown={shown} onShow={setChosen} />
      {summary?.runs[0] && <RunSummary report={summary.runs[0]} />}
      {picked.length >= 2 ? <RunCompare runIds={picked} runs={runs} /> : runs.length >= 2 && <p className="muted">Tick two or more runs to compare them (the first ticked is the baseline A).</p>}
    </div>
  );
}
