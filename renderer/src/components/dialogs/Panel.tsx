import { useRef, type ReactNode } from 'react';
import { useFocusTrap } from '../../hooks/use-focus-trap.js';
import { useAppContext } from '../../store/use-app.js';

/** A modal panel over the page (maintenance windows, alert history): Esc, Close or a click beside it closes it. */
export function Panel({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const { store } = useAppContext();
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  const close = () => store.setUi({ panel: null });
  return (
    <div className="modal-backdrop" role="presentation" onClick={close}>
      <div ref={ref} className="modal panel" role="dialog" aria-modal="true" aria-label={title} data-testid={testId} tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        <h2>{title}</h2>
        {children}
        <div className="modal-buttons">
          <button type="button" onClick={close}>
            Close (Esc)
          </button>
        </div>
      </div>
    </div>
  );
}
