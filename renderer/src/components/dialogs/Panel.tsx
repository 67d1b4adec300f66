import { useRef, type ReactNode } from 'react';
import { useFocusTrap } from '../../hooks/use-focus-trap.js';

interface PanelProps {
  /** The dialog's accessible name; also its heading unless `heading` says otherwise. */
  title: string;
  heading?: string;
  testId: string;
  /** `panel`: wide and scrolling, for lists (maintenance windows, the alert history). */
  wide?: boolean;
  onClose(): void;
  children: ReactNode;
}

/** A modal dialog over the page: it keeps the focus, and Close or a click beside it closes it (Esc: keyboard.ts). */
export function Panel({ title, heading, testId, wide = false, onClose, children }: PanelProps) {
  const ref = useRef<HTMLDivElement>(null);
  useFocusTrap(ref);
  return (
    <div className="modal-backdrop" role="presentation" onClick={onClose}>
      <div ref={ref} className={wide ? 'modal panel' : 'modal'} role="dialog" aria-modal="true" aria-label={title} data-testid={testId} tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        <h2>{heading ?? title}</h2>
        {children}
        <div className="modal-buttons">
          <button type="button" onClick={onClose}>
            Close (Esc)
          </button>
        </div>
      </div>
    </div>
  );
}
