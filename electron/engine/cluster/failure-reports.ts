import { arbitOutcome } from '../../../native-mgm/index.js';

/**
 * Data nodes' word that another node failed (NODE_FAILREP, a data node's Disconnected): a claim, not yet a fact.
 * After a network split each half reports the other failed (spec §6.6.4 only says "a surviving node reports the
 * failure", and the losing half is no survivor), and nothing in the reports themselves says which half will go on.
 * So a claim marks nobody down; what settles it:
 * - the president's arbitration result (ArbitResult): its side goes on, and the nodes it reported failed did fail;
 *   the nodes its side did not report failed are on its side, and what the other side said about them was wrong;
 *   a side that stops was wrong about the nodes it reported failed;
 * - the node's own word (its forced stop, its start) or the management server's (its own Disconnected);
 * - a `get status` asked after the claim: the management server's own view, whichever way it says.
 */
export class FailureReports {
  /** Failed node → reporting node → when it reported. */
  private readonly claims = new Map<number, Map<number, number>>();

  report(reporter: number, failed: number, at: number): void {
    if (reporter === failed) return;
    let by = this.claims.get(failed);
    if (!by) this.claims.set(failed, (by = new Map()));
    by.set(reporter, at);
  }

  /** Some node reported `id` failed, and nothing settled it yet. */
  reported(id: number): boolean {
    return this.claims.has(id);
  }

  /**
   * The president's arbitration result: the nodes it reported failed whose failure its side's going on confirms (none
   * for a side that stops or a result that decides nothing yet, such as 45, a possible partitioning).
   */
  arbitrated(president: number, code: number): number[] {
    const reportedByPresident = [...this.claims].filter(([, by]) => by.has(president)).map(([id]) => id);
    // Its side goes on by arbitration or with a node group fully alive; it shuts down on a lost one.
    const outcome = arbitOutcome(code);
    if (outcome === 'won' || outcome === 'unneeded') {
      const other = new Set(reportedByPresident);
      for (const id of [...this.claims.keys()]) if (!other.has(id)) this.claims.delete(id);
      return reportedByPresident;
    }
    if (outcome === 'lost') for (const id of reportedByPresident) this.claims.delete(id);
    return [];
  }

  /**
   * The node's status came from a source that knows (its own events, the management server's): the claims about it
   * told before `asOf` are settled, and a node that is down reports nobody's failure any more.
   */
  told(id: number, up: boolean, asOf = Infinity): void {
    const by = this.claims.get(id);
    if (by) {
      for (const [reporter, at] of by) if (at <= asOf) by.delete(reporter);
      if (by.size === 0) this.claims.delete(id);
    }
    if (up) return;
    for (const [failed, reporters] of this.claims) {
      reporters.delete(id);
      if (reporters.size === 0) this.claims.delete(failed);
    }
  }
}
