/**
 * Lays out rows as left-aligned columns separated by at least `gap` spaces. The first row is the
 * header. Plain text (no box drawing) so the output pastes cleanly into issues and commit messages.
 */
export function textTable(rows: string[][], gap = 3): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] + gap)))
        .join("")
        .trimEnd(),
    )
    .join("\n");
}
