import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, release, totalmem } from 'node:os';

/** `ratio ≥ x` (value / ceiling) or an absolute bound `value < x` in the figure's unit. */
export type Target = { atLeastRatio: number } | { below: number };

export interface Figure {
  name: string;
  unit: string;
  value: number;
  /** What the ceiling is, e.g. "raw node:http". */
  ceilingName: string;
  ceiling: number;
  /** value / ceiling: a share of the ceiling for rates, a multiple of it for times and sizes. */
  ratio: number;
  target: Target | null;
  met: boolean | null;
}

export function figure(
  name: string,
  unit: string,
  value: number,
  ceilingName: string,
  ceiling: number,
  target: Target | null = null,
): Figure {
  const ratio = ceiling > 0 ? value / ceiling : NaN;
  let met: boolean | null = null;
  if (target && 'atLeastRatio' in target) met = ratio >= target.atLeastRatio;
  else if (target) met = value < target.below;
  return { name, unit, value, ceilingName, ceiling, ratio, target, met };
}

/** The machine, and how busy other processes kept it (load averages at the start and the end of the run). */
export function machine(mode: string, persistence: string, loadAtStart: number[]) {
  const cpuList = cpus();
  return {
    date: new Date().toISOString(),
    loadAverageAtStart: loadAtStart.map((n) => Math.round(n * 100) / 100),
    loadAverageAtEnd: loadavg().map((n) => Math.round(n * 100) / 100),
    mode,
    persistence,
    cores: cpuList.length,
    cpuModel: cpuList[0]?.model ?? 'unknown',
    memoryBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${release()}`,
  };
}

const number = (value: number, unit: string) => {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`;
};

function targetText(target: Target | null, unit: string): string {
  if (!target) return '—';
  return 'atLeastRatio' in target ? `ratio ≥ ${target.atLeastRatio}` : `< ${target.below} ${unit}`;
}

/** The rows of the table, as printed and as written into docs/BENCHMARKS.md. */
export function rows(figures: readonly Figure[]): string[][] {
  return figures.map((f) => [
    f.name,
    number(f.value, f.unit),
    `${number(f.ceiling, f.unit)} (${f.ceilingName})`,
    Number.isFinite(f.ratio) ? f.ratio.toFixed(2) : 'n/a',
    targetText(f.target, f.unit),
    f.met === null ? '—' : f.met ? 'yes' : 'NO',
  ]);
}

export const HEADER = ['name', 'value', 'ceiling', 'ratio', 'target', 'met?'];

export function printTable(figures: readonly Figure[]): void {
  const table = [HEADER, ...rows(figures)];
  const widths = HEADER.map((_, col) => Math.max(...table.map((row) => (row[col] ?? '').length)));
  const line = (row: string[]) => row.map((cell, col) => cell.padEnd(widths[col] ?? 0)).join('  ');
  console.log(`\n${line(HEADER)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of table.slice(1)) console.log(line(row));
}

/** The same table in Markdown, for pasting a full run into docs/BENCHMARKS.md. */
export function markdownTable(figures: readonly Figure[]): string {
  const line = (row: string[]) => `| ${row.join(' | ')} |`;
  return [line(HEADER), line(HEADER.map(() => '---')), ...rows(figures).map(line)].join('\n');
}

export async function writeResults(path: string, content: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(content, null, 2)}\n`);
}
