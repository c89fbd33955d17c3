/**
 * Server-side Tables (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`): the column
 * definitions and cells of a resource, and the Table document kubectl prints. Custom resources
 * use their CRD's additionalPrinterColumns (apiextensions' tableconvertor); Namespaces and
 * CRDs have the printers kube-apiserver has for them. Rows carry the object as
 * PartialObjectMetadata by default (`includeObject=Metadata`), as Object, or not at all (None).
 */
import { newBadRequest } from '../../apimachinery/index.ts';
import { errorString, notSupported } from '../../apimachinery/index.ts';
import { humanAge } from './duration.ts';
import { findResults, parseJSONPath, printResult, type JSONPath } from './jsonpath.ts';

type Obj = Record<string, unknown>;

export interface ColumnDefinition {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

/** Turns one object into its row cells; `now` is the time ages are measured against. */
export interface TableConvertor {
  readonly columns: ColumnDefinition[];
  cells(obj: Obj, now: number): unknown[];
  /** The row's conditions (a completed pod's `Completed`), where the kind's printer sets them. */
  conditions?(obj: Obj): unknown[] | undefined;
  /** A list's items in the order the kind's list printer prints them, where it reorders. */
  order?(items: Obj[]): Obj[];
}

export const nameDescription =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
export const creationTimestampDescription =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

function meta(obj: Obj): Obj {
  const m = obj.metadata;
  return m !== null && typeof m === 'object' ? (m as Obj) : {};
}

/** A CRD version's additionalPrinterColumns entry. */
export interface PrinterColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

/** serveDefaultColumnsIfEmpty: a CRD without columns shows Age. */
export function defaultedColumns(cols: readonly PrinterColumn[] | undefined): PrinterColumn[] {
  if (cols && cols.length > 0) return [...cols];
  return [{ name: 'Age', type: 'date', description: creationTimestampDescription, jsonPath: '.metadata.creationTimestamp' }];
}

function cellForJSONValue(type: string, value: unknown, now: number): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'date':
      if (typeof value === 'string') {
        if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return '<invalid>';
        return humanAge(value, now);
      }
      return null;
  }
  return null;
}

/** apiextensions' tableconvertor.New: Name plus the CRD's (defaulted) printer columns. */
export function crdTableConvertor(cols: readonly PrinterColumn[] | undefined): TableConvertor {
  const defs = defaultedColumns(cols);
  const paths: Array<JSONPath | undefined> = [];
  const columns: ColumnDefinition[] = [{ name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 }];
  for (const c of defs) {
    let jp: JSONPath | undefined;
    try {
      jp = parseJSONPath(`{${c.jsonPath ?? ''}}`);
    } catch {
      jp = undefined;
    }
    paths.push(jp);
    columns.push({
      name: c.name ?? '',
      type: c.type ?? '',
      format: c.format ?? '',
      description: c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath ?? ''}`,
      priority: c.priority ?? 0,
    });
  }
  return {
    columns,
    cells(obj: Obj, now: number): unknown[] {
      const cells: unknown[] = [meta(obj).name ?? ''];
      for (let i = 0; i < paths.length; i++) {
        const jp = paths[i];
        const type = columns[i + 1]!.type;
        let results: unknown[][];
        try {
          results = jp ? findResults(jp, obj) : [];
        } catch {
          cells.push(null);
          continue;
        }
        if (results.length === 0 || results[0]!.length === 0) {
          cells.push(null);
          continue;
        }
        const value = results[0]![0];
        if (type === 'string') cells.push(printResult(value));
        else cells.push(cellForJSONValue(type, value, now));
      }
      return cells;
    },
  };
}

/** rest.NewDefaultTableConvertor: Name and Created At (RFC 3339, UTC). Used for CRDs. */
export const defaultTableConvertor: TableConvertor = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 },
    { name: 'Created At', type: 'date', format: '', description: creationTimestampDescription, priority: 0 },
  ],
  cells(obj: Obj): unknown[] {
    const m = meta(obj);
    const ts = typeof m.creationTimestamp === 'string' ? new Date(m.creationTimestamp).toISOString().replace(/\.\d{3}Z$/, 'Z') : '0001-01-01T00:00:00Z';
    return [m.name ?? '', ts];
  },
};

/** The Namespace printer: Name, Status (phase), Age. */
export const namespaceTableConvertor: TableConvertor = {
  columns: [
    { name: 'Name', type: 'string', format: 'name', description: nameDescription, priority: 0 },
    { name: 'Status', type: 'string', format: '', description: 'The status of the namespace', priority: 0 },
    { name: 'Age', type: 'string', format: '', description: creationTimestampDescription, priority: 0 },
  ],
  cells(obj: Obj, now: number): unknown[] {
    const status = (obj.status as Obj | undefined)?.phase ?? '';
    return [meta(obj).name ?? '', status, humanAge(meta(obj).creationTimestamp, now)];
  },
};

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/**
 * Validates `?includeObject=` as ValidateTableOptions does; '' means the default, Metadata.
 * A bad value is 400 `Unable to convert to Table as requested: includeObject: Unsupported value: ...`.
 */
export function parseIncludeObject(v: string | undefined): IncludeObject {
  if (v === undefined || v === '' || v === 'Metadata') return 'Metadata';
  if (v === 'None' || v === 'Object') return v;
  const err = errorString(notSupported('includeObject', v, ['Metadata', 'None', 'Object']));
  throw newBadRequest(`Unable to convert to Table as requested: ${err}`);
}

export interface TableOptions {
  noHeaders?: boolean;
  includeObject: IncludeObject;
  /** The Table's group version: meta.k8s.io/v1 or meta.k8s.io/v1beta1. */
  tableVersion: string;
  now?: number;
  /** How a row's object is embedded under includeObject=Object (default: as it is). */
  embed?: (obj: Obj) => Obj;
}

/** Builds a Table for one object or a list (`items`, with list metadata). */
export function toTable(conv: TableConvertor, objOrList: Obj, isList: boolean, opts: TableOptions): Obj {
  const now = opts.now ?? Date.now();
  const listed: Obj[] = isList ? ((objOrList.items as Obj[] | undefined) ?? []) : [objOrList];
  const items = conv.order ? conv.order(listed) : listed;
  const srcMeta = meta(objOrList);
  const tableMeta: Obj = {};
  if (srcMeta.resourceVersion !== undefined) tableMeta.resourceVersion = srcMeta.resourceVersion;
  if (isList && srcMeta.continue) tableMeta.continue = srcMeta.continue;
  if (isList && srcMeta.remainingItemCount !== undefined) tableMeta.remainingItemCount = srcMeta.remainingItemCount;
  const table: Obj = { kind: 'Table', apiVersion: `meta.k8s.io/${opts.tableVersion}`, metadata: tableMeta };
  // Go encodes the omitted headers as null (the field has no omitempty).
  table.columnDefinitions = opts.noHeaders ? null : conv.columns;
  table.rows = items.map((item) => {
    const row: Obj = { cells: conv.cells(item, now) };
    const conditions = conv.conditions?.(item);
    if (conditions) row.conditions = conditions;
    if (opts.includeObject === 'Object') row.object = opts.embed ? opts.embed(item) : item;
    else if (opts.includeObject === 'Metadata') {
      row.object = { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${opts.tableVersion}`, metadata: meta(item) };
    }
    return row;
  });
  return table;
}
