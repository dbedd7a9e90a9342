#!/usr/bin/env node
// `npm run bench:chart`: the README's performance chart, drawn from `npm run bench`'s output.
// Reads the real-apps section of the newest run in bench/results/ (latest.json's `realApps`, written by `npm run bench`,
// or real-apps.json, written by `npm run bench -- --real-apps`; whichever was generated last) and writes
// docs/images/performance.svg: microseconds per call, distinct decorated class commands called round-robin, for
// toolwright and the pipelines a team would write instead (hand-written, ajv, zod, class-transformer + class-validator),
// at each app size of the run. It also prints the README's short table (markdown) on stdout.
// Usage: node scripts/bench-chart.mjs [--from <results.json>] [--out <file.svg>] [--check]
//   --check  writes nothing; exits 1 when the SVG on disk differs from what the results give (CI runs this).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = join(ROOT, 'bench', 'results');
export const DEFAULT_OUT = join(ROOT, 'docs', 'images', 'performance.svg');

/** The contenders drawn, in order: the bench's ids for decorated class commands, with a short name and a colour. */
export const CONTENDERS = [
  { id: 'class:tw', name: 'toolwright', colour: '#2563eb' },
  { id: 'class:hand', name: 'hand-written', colour: '#6b7280' },
  { id: 'class:ajv', name: 'ajv', colour: '#16a34a' },
  { id: 'class:zod', name: 'zod 4', colour: '#9333ea' },
  { id: 'class:cv', name: 'class-validator', colour: '#dc2626' },
];

/**
 * The real-apps report of the newest run: `{ generatedAt, coreCommit, roundRobin }`, from `file` when given, else from
 * the newer of bench/results/latest.json (`realApps`) and bench/results/real-apps.json.
 */
export function readRealApps(file) {
  const candidates = file
    ? [resolve(file)]
    : [join(RESULTS, 'latest.json'), join(RESULTS, 'real-apps.json')].filter((path) => existsSync(path));
  const reports = candidates.flatMap((path) => {
    const json = JSON.parse(readFileSync(path, 'utf8'));
    const report = json.roundRobin ? json : json.realApps;
    if (!report?.roundRobin) return [];
    return [{ ...report, generatedAt: report.generatedAt ?? json.generatedAt, source: path }];
  });
  if (reports.length === 0)
    throw new Error(
      `No real-apps results in ${candidates.map((path) => relative(ROOT, path)).join(', ')}: run npm run bench.`,
    );
  return reports.sort((a, b) => String(b.generatedAt).localeCompare(String(a.generatedAt)))[0];
}

/** Microseconds per call of every drawn contender at every size: `[{ size, values: [us per contender] }]`. */
export function seriesOf(report) {
  const { sizes, medianNs } = report.roundRobin;
  return sizes.map((size) => ({
    size,
    values: CONTENDERS.map(({ id }) => {
      const ns = medianNs[String(size)]?.[id];
      if (typeof ns !== 'number' || !(ns > 0))
        throw new Error(`The results have no median for ${id} at ${size} commands.`);
      return ns / 1000;
    }),
  }));
}

const escapeXml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const format = (us) => (us >= 100 ? us.toFixed(0) : us >= 10 ? us.toFixed(1) : us.toFixed(2));
const commands = (size) => `${size} command${size === 1 ? '' : 's'}`;

/**
 * The chart: grouped bars per app size on a logarithmic axis (class-validator is 10-75 times the others, so a linear
 * axis would flatten them), each bar labelled with its value. Pure function of the report: the same results give the
 * same bytes.
 */
export function renderSvg(report) {
  const series = seriesOf(report);
  const width = 760;
  const height = 380;
  const left = 56;
  const right = 16;
  const top = 64;
  const bottom = 56;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const all = series.flatMap(({ values }) => values);
  const lowDecade = Math.floor(Math.log10(Math.min(...all)));
  const highDecade = Math.ceil(Math.log10(Math.max(...all)));
  const y = (us) => top + plotHeight - ((Math.log10(us) - lowDecade) / (highDecade - lowDecade)) * plotHeight;
  const groupWidth = plotWidth / series.length;
  const barWidth = Math.min(24, (groupWidth - 24) / CONTENDERS.length);
  const lines = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12" role="img" aria-labelledby="title desc">`,
    `<title id="title">Microseconds per tool call, distinct commands called round-robin</title>`,
    `<desc id="desc">${escapeXml(
      series
        .map(
          ({ size, values }) =>
            `${commands(size)}: ${CONTENDERS.map(({ name }, index) => `${name} ${format(values[index])} us`).join(', ')}`,
        )
        .join('; '),
    )}</desc>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="22" font-size="15" font-weight="600" fill="#111827">Microseconds per tool call (lower is better), commands called round-robin</text>`,
  ];
  // Legend.
  let legendX = left;
  for (const { name, colour } of CONTENDERS) {
    lines.push(`<rect x="${legendX}" y="34" width="12" height="12" fill="${colour}"/>`);
    lines.push(`<text x="${legendX + 16}" y="44" fill="#374151">${escapeXml(name)}</text>`);
    legendX += 28 + name.length * 7;
  }
  // Axis: one gridline per power of ten.
  for (let decade = lowDecade; decade <= highDecade; decade++) {
    const value = 10 ** decade;
    const at = y(value).toFixed(1);
    lines.push(`<line x1="${left}" x2="${width - right}" y1="${at}" y2="${at}" stroke="#e5e7eb"/>`);
    lines.push(
      `<text x="${left - 6}" y="${at}" dy="4" text-anchor="end" fill="#6b7280">${value >= 1 ? value : value.toFixed(-decade)} us</text>`,
    );
  }
  series.forEach(({ size, values }, group) => {
    const groupLeft = left + group * groupWidth + (groupWidth - barWidth * CONTENDERS.length) / 2;
    values.forEach((us, index) => {
      const x = groupLeft + index * barWidth;
      const barTop = y(us);
      lines.push(
        `<rect x="${x.toFixed(1)}" y="${barTop.toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${(top + plotHeight - barTop).toFixed(1)}" fill="${CONTENDERS[index].colour}"><title>${escapeXml(`${CONTENDERS[index].name}, ${commands(size)}: ${format(us)} us`)}</title></rect>`,
      );
      lines.push(
        `<text x="${(x + (barWidth - 2) / 2).toFixed(1)}" y="${(barTop - 4).toFixed(1)}" text-anchor="middle" font-size="9" fill="#374151">${format(us)}</text>`,
      );
    });
    lines.push(
      `<text x="${(left + group * groupWidth + groupWidth / 2).toFixed(1)}" y="${top + plotHeight + 20}" text-anchor="middle" fill="#111827">${commands(size)}</text>`,
    );
  });
  lines.push(
    `<line x1="${left}" x2="${width - right}" y1="${top + plotHeight}" y2="${top + plotHeight}" stroke="#9ca3af"/>`,
  );
  const date = String(report.generatedAt).slice(0, 10);
  lines.push(
    `<text x="${left}" y="${height - 12}" font-size="11" fill="#6b7280">npm run bench, ${escapeXml(date)}${report.coreCommit ? ` (core at ${escapeXml(report.coreCommit)})` : ''}: median CPU time per call, every call's arguments different, logarithmic axis</text>`,
  );
  lines.push('</svg>');
  return `${lines.join('\n')}\n`;
}

/** The README's short table: microseconds per call at each size, and toolwright's ratio to the hand-written check. */
export function renderTable(report) {
  const series = seriesOf(report);
  const header = `| app size | ${CONTENDERS.map(({ name }) => name).join(' | ')} |`;
  const rule = `|---|${CONTENDERS.map(() => '---:').join('|')}|`;
  const rows = series.map(
    ({ size, values }) => `| ${commands(size)} | ${values.map((us) => `${format(us)} us`).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const option = (name) => {
    const at = process.argv.indexOf(name);
    if (at === -1) return undefined;
    if (!process.argv[at + 1]) throw new Error(`${name} needs a path`);
    return process.argv[at + 1];
  };
  const out = resolve(option('--out') ?? DEFAULT_OUT);
  const report = readRealApps(option('--from'));
  const svg = renderSvg(report);
  if (process.argv.includes('--check')) {
    const current = existsSync(out) ? readFileSync(out, 'utf8') : '';
    if (current !== svg) {
      process.stderr.write(
        `bench-chart: ${relative(ROOT, out)} is not what ${relative(ROOT, report.source)} gives: run npm run bench:chart and commit it.\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`bench-chart: ${relative(ROOT, out)} matches ${relative(ROOT, report.source)}\n`);
  } else {
    writeFileSync(out, svg);
    process.stdout.write(
      `bench-chart: wrote ${relative(ROOT, out)} from ${relative(ROOT, report.source)}\n\n${renderTable(report)}\n`,
    );
  }
}
