import { useApp } from '../store/use-app.js';
import { figuresAsOf, figuresOldWhy } from '../view-model/nodes/freshness.js';

/** When what the page shows is from, if it is not current (null while it is); a number, so cards re-render only when it moves. */
export function useFiguresAsOf(): number | null {
  return useApp((s) => figuresAsOf(s.ui.transport, s.live.connection, s.shown.sampledAt));
}

/** Why what the page shows is not current (null while it is): the reason a control that cannot act gives. */
export function useFiguresOldWhy(): string | null {
  return useApp((s) => figuresOldWhy(s.ui.transport, s.live.connection));
}
