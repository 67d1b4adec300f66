/** A focused cell of a grid: the Threads heatmap's, the Redo & transport matrix's. */
export interface GridCell {
  row: number;
  column: number;
}

/**
 * Where a key moves the focus in a grid of `rows` × `columns` (arrows one cell, Page keys `page` rows, Home/End the
 * row's ends), kept inside the grid; null for any other key.
 */
export function moveCell(at: GridCell, key: string, rows: number, columns: number, page: number): GridCell | null {
  const moves: Record<string, [number, number]> = {
    ArrowUp: [at.row - 1, at.column],
    ArrowDown: [at.row + 1, at.column],
    ArrowLeft: [at.row, at.column - 1],
    ArrowRight: [at.row, at.column + 1],
    PageUp: [at.row - page, at.column],
    PageDown: [at.row + page, at.column],
    Home: [at.row, 0],
    End: [at.row, columns - 1],
  };
  const to = moves[key];
  if (!to || rows === 0 || columns === 0) return null;
  return { row: Math.max(0, Math.min(rows - 1, to[0])), column: Math.max(0, Math.min(columns - 1, to[1])) };
}
