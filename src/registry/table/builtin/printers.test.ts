// kube-apiserver's printer tables (pkg/printers/internalversion/printers_test.go, the TestPrint*
// cases), run as data from testdata/k8s/printers/*.json: each case is an object (or a list) in its
// v1 JSON form, the cells upstream expects, and whether the case printed the wide set. Times are
// written relative to the file's fixed `now` (`now-3d`, `now+1.9s`), since upstream's cases read
// the clock.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Tally } from '../../../apimachinery/index.ts';
import { namespaceTableConvertor, toTable, type TableConvertor } from '../convert.ts';
import { builtinTableConvertor, printedResources } from './index.ts';

interface Case {
  name: string;
  resource: string;
  object?: Record<string, unknown>;
  list?: Record<string, unknown>[];
  /** The cell index a list case compares across rows; without it, a list case compares whole rows. */
  column?: number;
  rows?: unknown[][];
  wide?: boolean;
  cells?: unknown[];
  conditions?: unknown[];
  skip?: string;
}

interface VectorFile {
  test: string;
  cases: Case[];
}

const dir = fileURLToPath(new URL('../../../../testdata/k8s/printers/', import.meta.url));
const now = Date.parse('2026-06-01T12:00:00Z');
const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Replaces `now`, `now-3d`, `now+1.9s` strings by RFC 3339 times relative to the fixed clock. */
function resolveTimes(v: unknown): unknown {
  if (typeof v === 'string') {
    const m = /^now(?:([+-])(\d+(?:\.\d+)?)([smhd]))?$/.exec(v);
    if (!m) return v;
    const delta = m[1] ? (m[1] === '-' ? -1 : 1) * Number(m[2]) * units[m[3]!]! : 0;
    return new Date(now + delta).toISOString();
  }
  if (Array.isArray(v)) return v.map(resolveTimes);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveTimes(x)]));
  return v;
}

function convertorFor(resource: string): TableConvertor {
  if (resource === '/namespaces') return namespaceTableConvertor;
  const [group, res] = resource.split('/') as [string, string];
  return builtinTableConvertor(group, res);
}

/** The cells a case compares: every cell when `wide` (upstream printed the wide set, or its printer ignores Wide), else those of priority-0 columns. */
function shown(conv: TableConvertor, cells: unknown[], wide: boolean): unknown[] {
  return wide ? cells : cells.filter((_, i) => conv.columns[i]?.priority === 0);
}

const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();
const tally = new Tally('printers');
after(() => console.log(tally.summary()));
let count = 0;

for (const f of files) {
  const file = JSON.parse(readFileSync(dir + f, 'utf8')) as VectorFile;
  for (const c of file.cases) {
    count++;
    test(`printers ${f}: ${c.name}`, (t) => {
      if (c.skip) {
        tally.skip(c.name, c.skip);
        t.skip(c.skip);
        return;
      }
      const conv = convertorFor(c.resource);
      try {
        if (c.list) {
          const table = toTable(conv, { metadata: {}, items: resolveTimes(c.list) }, true, { includeObject: 'None', tableVersion: 'v1', now });
          const rows = table.rows as Array<{ cells: unknown[] }>;
          const printed = rows.map((r) => shown(conv, r.cells, c.wide === true));
          if (c.rows) assert.deepEqual(printed, c.rows);
          else assert.deepEqual(printed.map((cells) => cells[c.column ?? 0]), c.cells);
        } else {
          const obj = resolveTimes(c.object) as Record<string, unknown>;
          const cells = conv.cells(obj, now);
          // A cell per column (the IPAddress printer appends one more, as upstream's does; kubectl ignores it).
          assert.ok(cells.length >= conv.columns.length, `${cells.length} cells for ${conv.columns.length} columns`);
          assert.deepEqual(shown(conv, cells, c.wide === true), c.cells);
          assert.deepEqual(conv.conditions?.(obj), c.conditions);
        }
        tally.passed++;
      } catch (e) {
        tally.failed++;
        throw e;
      }
    });
  }
}

test('the printer vectors hold every converted case', () => {
  assert.ok(files.length >= 12, `vector files: ${files.length}`);
  assert.ok(count >= 240, `cases: ${count}`);
});

// TestTableRowDeepCopyShouldNotPanic: every printer prints an empty object; here also objects whose
// fields have the wrong JSON types, which a stored object cannot have but a printer must survive.
test('every printer prints empty and ill-typed objects without throwing', () => {
  const odd = { metadata: { name: 7, creationTimestamp: 'yesterday', labels: 'x' }, spec: 'spec', status: [1], data: 3, subsets: {}, webhooks: 'w' };
  for (const key of printedResources()) {
    const [group, res] = key.split('/') as [string, string];
    const conv = builtinTableConvertor(group, res);
    for (const o of [{}, odd]) {
      const cells = conv.cells(o, now);
      assert.ok(cells.length >= conv.columns.length, key);
      for (const c of cells) assert.ok(['string', 'number', 'boolean'].includes(typeof c), `${key}: ${String(c)}`);
    }
  }
});
