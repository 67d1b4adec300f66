/** What a view built on ndbinfo shows when no SQL source is configured: one line, and how to turn it on. */
export function ThreadsHint() {
  return (
    <p className="sql-hint muted" data-testid="threads-hint">
      No SQL source: per-thread CPU comes from ndbinfo through an SQL node. Start ndbtop with <code>--sql mysql://USER@HOST[:PORT]</code> (password from <code>--sql-password-file</code> or NDBTOP_SQL_PASSWORD), or use the built-in simulator, whose embedded SQL node is on by default.
    </p>
  );
}
