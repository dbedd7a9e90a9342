import type { ArrayCosts, Row } from './results';

export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return 'n/a';
  const abs = Math.abs(ns);
  if (abs < 1_000) return `${ns.toFixed(abs < 10 ? 1 : 0)} ns`;
  if (abs < 1_000_000) return `${(ns / 1_000).toFixed(abs < 10_000 ? 2 : abs < 100_000 ? 1 : 0)} us`;
  return `${(ns / 1_000_000).toFixed(abs < 10_000_000 ? 2 : 1)} ms`;
}

export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '';
  return `${ratio.toFixed(ratio < 10 ? 2 : 1)}x`;
}

export function formatBytes(bytes: number): string {
  if (Math.abs(bytes) < 10_240) return `${Math.round(bytes)} B`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ('l' | 'r')[] = [],
): string {
  const lines = [
    `| ${header.join(' | ')} |`,
    `|${header.map((_, index) => (align[index] === 'r' ? '---:' : '---')).join('|')}|`,
  ];
  for (const cells of rows) lines.push(`| ${cells.join(' | ')} |`);
  return lines.join('\n');
}

export function ratioOf(rows: readonly Row[], target: Row, baselineId: string | undefined): number | undefined {
  if (baselineId === undefined) return undefined;
  const baseline = rows.find((candidate) => candidate.id === baselineId);
  return baseline ? target.medianNs / baseline.medianNs : undefined;
}

const SCOPE: Record<Row['scope'], string> = {
  e2e: 'JSON text -> handler',
  check: 'parsed object -> verdict',
  reference: 'reference',
};

/** One markdown table per case group: median, and the ratio to the hand-written and CT+CV rows of the same scope. */
export function caseTable(rows: readonly Row[], group: string): string {
  const selected = rows.filter((candidate) => candidate.group === group);
  return table(
    ['path', 'input', 'median per call', 'x hand-written', 'x CT+CV'],
    selected.map((entry) => [
      entry.label,
      SCOPE[entry.scope],
      formatNs(entry.medianNs),
      formatRatio(ratioOf(rows, entry, entry.handId)),
      formatRatio(ratioOf(rows, entry, entry.ctcvId)),
    ]),
    ['l', 'l', 'r', 'r', 'r'],
  );
}

export function arrayTable(
  arrays: readonly ArrayCosts[],
  kind: 'scalar' | 'nested',
  sizes: readonly number[],
  ratioSize = 1_000,
): string {
  const perItemOf = (costs: ArrayCosts) => (kind === 'scalar' ? costs.scalarPerItemNs : costs.nestedPerItemNs);
  const hand = arrays.find((costs) => costs.id === 'hand');
  const withRatio = hand !== undefined && sizes.includes(ratioSize);
  return table(
    [
      'path',
      'both arrays empty',
      ...sizes.map((size) => `per item @ ${size.toLocaleString('en-US')}`),
      `call @ ${sizes[sizes.length - 1]!.toLocaleString('en-US')}`,
      ...(withRatio ? [`per item x hand-written @ ${ratioSize.toLocaleString('en-US')}`] : []),
    ],
    arrays.map((costs) => {
      const perItem = perItemOf(costs);
      const perCall = kind === 'scalar' ? costs.scalarNs : costs.nestedNs;
      const ratio =
        withRatio && costs.id !== 'json-parse' ? formatRatio(perItem[ratioSize]! / perItemOf(hand)[ratioSize]!) : '';
      return [
        costs.label,
        formatNs(costs.baseNs),
        ...sizes.map((size) => formatNs(perItem[size]!)),
        formatNs(perCall[sizes[sizes.length - 1]!]!),
        ...(withRatio ? [ratio] : []),
      ];
    }),
    ['l', 'r', ...sizes.map((): 'r' => 'r'), 'r', ...(withRatio ? ['r' as const] : [])],
  );
}
