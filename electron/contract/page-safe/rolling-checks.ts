/** One NDB check of a rolling-restart step as the engine judged it (the shape of `RollingStepView.checks`). */
export interface CheckWords {
  check: 'backup' | 'redo' | 'gcp' | 'arbitrator';
  verdict: 'pass' | 'wait' | 'halt' | 'unchecked';
  figure: string | null;
  text: string;
}

const LABEL: Record<CheckWords['check'], string> = { backup: 'backup', redo: 'redo', gcp: 'global checkpoint', arbitrator: 'arbitrator' };

/**
 * The NDB checks in one line, each by its figure ("backup none running; redo 12 % on node 3; …"), an unchecked one
 * with why: the CLI's `checked` line, the engine's log and the rolling panel say the same, quiet when they pass.
 */
export function checksLine(checks: readonly CheckWords[]): string {
  return checks.map((c) => (c.verdict === 'unchecked' ? c.text : `${LABEL[c.check]} ${c.figure ?? '?'}`)).join('; ');
}
