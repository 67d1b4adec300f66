/** What a view built on ndbinfo shows when no SQL source is configured: one line, and how to turn it on. */
export function ThreadsHint() {
  return (
    <p className="sql-hint muted" data-testid="threads-hint">
      No SQL source, so no per-thread CPU (ndbinfo): start ndbtop with <code>--sql mysql://USER@HOST[:PORT]</code>, or use the built-in simulator with its embedded SQL node.
    </p>
  );
}
