import { useState } from 'react';
import { checksLine, type NodeView, type RollingPlanView, type RollingStepView } from '../../contract.js';
import { useApp, useAppContext } from '../../store/use-app.js';
import { formatClock, formatDuration, formatNodeIds } from '../../view-model/format.js';
import { restartStateText } from '../../view-model/restarts/restart-state-text.js';
import { finishText } from '../../view-model/restarts/eta-range.js';

const STATE_WORDS: Record<RollingPlanView['state'], string> = {
  planned: 'planned: nothing sent yet',
  checking: 'checking before the next step',
  restarting: 'restart sent',
  waiting: 'waiting for the step’s nodes to be STARTED again',
  pausing: 'pausing between steps',
  halted: 'HALTED',
  done: 'done',
  aborted: 'aborted',
};
const ACTIVE = new Set<RollingPlanView['state']>(['checking', 'restarting', 'waiting', 'pausing']);
const SHOWN_LOG = 6;

/** The running step's nodes grouped by where they are, so a step of 24 nodes takes a line or two, not 24. */
function stepProgress(step: RollingStepView, nodes: ReadonlyMap<number, NodeView>): Array<[string, number[]]> {
  const groups = new Map<string, number[]>();
  for (const p of step.progress) {
    const n = nodes.get(p.nodeId);
    const where = !p.left ? 'restart sent, still STARTED' : p.backAt !== null ? 'STARTED again' : n ? restartStateText(n) : 'not seen';
    groups.set(where, [...(groups.get(where) ?? []), p.nodeId]);
  }
  return [...groups];
}

function StepLine({ step, nodes }: { step: RollingStepView; nodes: ReadonlyMap<number, NodeView> }) {
  const took = step.durationMs !== null ? ` in ${formatDuration(step.durationMs)}` : '';
  return (
    <li className={`rolling-step step-${step.state}`} data-testid={`rolling-step-${step.step}`} data-state={step.state}>
      <span className="step-head">
        Step {step.step}: {formatNodeIds(step.nodes)} — {step.state}
        {took}
      </span>
      {step.progress.length > 0 && (
        <span className="step-progress">
          {stepProgress(step, nodes).map(([where, ids]) => (
            <span key={where}>
              {formatNodeIds(ids)}: {where}
            </span>
          ))}
        </span>
      )}
      {step.checks.length > 0 && (
        <span className="step-checks muted" data-testid="rolling-step-checks">
          NDB checks: {checksLine(step.checks)}
        </span>
      )}
      {step.waiting !== null && (
        <span className="step-wait muted" data-testid="rolling-step-wait">
          {step.waiting}
        </span>
      )}
      {step.hazards.length > 0 && (
        <ul className="plain hazards tone-warn">
          {step.hazards.map((h) => (
            <li key={h}>would halt: {h}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

function Eta({ plan, now }: { plan: RollingPlanView; now: number }) {
  const { finishAt, finishRange, basis, stepMs, source } = plan.eta;
  if (plan.state === 'done') return <strong className="tone-ok">done</strong>;
  const timed = source === 'ndbinfo' ? 'timed by restart_info' : 'timed';
  return (
    <strong data-testid="rolling-plan-eta" data-finish-at={finishAt ?? ''} data-finish-from={finishRange?.from ?? ''} data-finish-to={finishRange?.to ?? ''} data-source={source}>
      {finishRange !== null
        ? finishText(finishRange, basis, 'step', now)
        : stepMs !== null
          ? `${formatDuration(stepMs)} a step (${timed})`
          : 'not known until the first step is timed'}
    </strong>
  );
}

/**
 * The rolling restart ndbtop conducts: plan (each step's nodes and what would halt it now), start, halt, resume,
 * skip, abort; the running step's nodes, the ETA and the log. Plain buttons and fields, so Tab and Enter run it.
 */
export function RollingConductorPanel({ now }: { now: number }) {
  const { api } = useAppContext();
  const plan = useApp((s) => s.shown.rollingPlan);
  const nodes = useApp((s) => s.shown.nodes);
  const clusterId = useApp((s) => s.live.clusterId);
  const actions = useApp((s) => s.appInfo?.actionsEnabled ?? null);
  const enabled = actions === true;
  const [order, setOrder] = useState<'node-group' | 'node-id'>('node-group');
  const [pauseSecs, setPauseSecs] = useState(0);
  const [backup, setBackup] = useState<'wait' | 'halt'>('wait');
  const [redoLimit, setRedoLimit] = useState(60);
  const [allowUnchecked, setAllowUnchecked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = clusterId === null ? {} : { clusterId };
  const run = async (what: string, fn: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await fn();
      setError(null);
    } catch (err) {
      setError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };
  const state = plan?.state ?? null;
  const active = state !== null && ACTIVE.has(state);
  const canPlan = enabled && !busy && !active && state !== 'halted';
  const id = plan?.planId ?? '';
  return (
    <section className="rolling conduct" data-testid="rolling-conductor" data-state={state ?? 'none'} aria-label="Conduct a rolling restart">
      <h2>Rolling restart by ndbtop {plan && <span className="muted">— {plan.steps.length} steps, {plan.order === 'node-id' ? 'one node at a time' : 'one node of each node group per step'}</span>}</h2>
      {actions === false && <p className="muted">Operator actions are off: start ndbtop with --allow-actions to plan and run a rolling restart here.</p>}
      <div className="conduct-controls" role="group" aria-label="Rolling restart controls">
        <label>
          Backup running{' '}
          <select value={backup} onChange={(e) => setBackup(e.target.value as 'wait' | 'halt')} disabled={!canPlan} data-testid="rolling-backup">
            <option value="wait">wait for it</option>
            <option value="halt">halt</option>
          </select>
        </label>
        <label>
          Redo limit (%){' '}
          <input type="number" min={1} max={100} value={redoLimit} onChange={(e) => setRedoLimit(Math.max(1, Math.min(100, Number(e.target.value) || 60)))} disabled={!canPlan} data-testid="rolling-redo-limit" />
        </label>
        <label title="A check that cannot be made (no SQL source for the redo fill, no checkpoint events yet) lets the step go, said in the log, instead of halting">
          <input type="checkbox" checked={allowUnchecked} onChange={(e) => setAllowUnchecked(e.target.checked)} disabled={!canPlan} data-testid="rolling-allow-unchecked" /> allow unchecked
        </label>
        <label>
          Order{' '}
          <select value={order} onChange={(e) => setOrder(e.target.value as 'node-group' | 'node-id')} disabled={!canPlan} data-testid="rolling-order">
            <option value="node-group">node group (parallel)</option>
            <option value="node-id">node id (one at a time)</option>
          </select>
        </label>
        <label>
          Pause (s){' '}
          <input type="number" min={0} max={3600} value={pauseSecs} onChange={(e) => setPauseSecs(Math.max(0, Math.min(3600, Number(e.target.value) || 0)))} disabled={!canPlan} data-testid="rolling-pause" />
        </label>
        <button type="button" disabled={!canPlan} data-testid="rolling-plan" onClick={() => void run('plan', () => api.planRollingRestart({ ...ref, order, pauseMs: pauseSecs * 1000, checks: { backup, redoLimitPct: redoLimit, allowUnchecked } }))}>
          Plan
        </button>
        <button type="button" disabled={!enabled || busy || state !== 'planned'} data-testid="rolling-start" onClick={() => void run('start', () => api.startRollingRestart({ ...ref, planId: id }))}>
          Start
        </button>
        <button type="button" disabled={!enabled || busy || !active} data-testid="rolling-halt" onClick={() => void run('halt', () => api.haltRollingRestart({ ...ref, planId: id }))}>
          Halt
        </button>
        <button type="button" disabled={!enabled || busy || state !== 'halted'} data-testid="rolling-resume" onClick={() => void run('resume', () => api.resumeRollingRestart({ ...ref, planId: id, skip: false }))}>
          Resume
        </button>
        <button type="button" disabled={!enabled || busy || state !== 'halted'} data-testid="rolling-skip" onClick={() => void run('skip', () => api.resumeRollingRestart({ ...ref, planId: id, skip: true }))}>
          Skip step
        </button>
        <button type="button" disabled={!enabled || busy || state === null || state === 'done' || state === 'aborted'} data-testid="rolling-abort" onClick={() => void run('abort', () => api.abortRollingRestart({ ...ref, planId: id }))}>
          Abort
        </button>
      </div>
      {error && (
        <p role="alert" className="tone-bad">
          {error}
        </p>
      )}
      {plan && (
        <>
          <div className="rolling-grid">
            <div>
              <span className="label">State</span>
              <strong data-testid="rolling-plan-state" className={state === 'halted' ? 'tone-bad' : state === 'done' ? 'tone-ok' : 'tone-busy'} aria-live="polite">
                {STATE_WORDS[plan.state]}
              </strong>
            </div>
            <div>
              <span className="label">Step</span>
              <strong>{plan.state === 'done' ? `all ${plan.steps.length}` : `${Math.min(plan.currentStep, plan.steps.length)} of ${plan.steps.length}`}</strong>
            </div>
            <div>
              <span className="label">Finishes</span>
              <Eta plan={plan} now={now} />
            </div>
            <div>
              <span className="label">Run</span>
              <strong>{plan.runId ?? 'not recorded'}</strong>
            </div>
          </div>
          {plan.halt && (
            <p className="tone-bad" data-testid="rolling-halt-reason">
              Halted ({plan.halt.code}): {plan.halt.reason}
            </p>
          )}
          <ol className="plain rolling-steps">
            {plan.steps.map((s) => (
              <StepLine key={s.step} step={s} nodes={nodes} />
            ))}
          </ol>
          {plan.manual.length > 0 && <p className="muted manual-steps">Manual: {plan.manual.join('; ')}</p>}
          <ol className="plain rolling-log" data-testid="rolling-log" aria-label="Rolling restart log">
            {plan.log.slice(-SHOWN_LOG).map((l, i) => (
              <li key={`${l.at}-${i}`}>
                <time>{formatClock(l.at)}</time> {l.detail ?? l.text}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
