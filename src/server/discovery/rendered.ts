/**
 * Rendered discovery documents, kept until the served table changes: with hundreds of CRDs the
 * aggregated document is hundreds of kB, and building, serializing and hashing it (its ETag) on
 * every request cost more than serving it. Any change of the table (a CRD established, changed or
 * deleted, a built-in kind added) drops every rendered document, as kube-apiserver's discovery
 * manager replaces its cached document when a group version changes.
 */
import { createHash } from 'node:crypto';
import type { ServedTable } from '../served.ts';
import type { DiscoveredGroup, DiscoveredResource } from './model.ts';

/** A document's bytes, and the ETag of the aggregated ones (a hash of the body, as upstream's). */
export interface RenderedDocument {
  body: string;
  etag: string;
}

/** The rendered documents of one served table. */
export class RenderedDiscovery {
  private generation = -1;
  private readonly docs = new Map<string, RenderedDocument>();
  private groupList: DiscoveredGroup[] | undefined;
  private resources: DiscoveredResource[] | undefined;

  constructor(private readonly table: ServedTable) {}

  private fresh(): void {
    if (this.generation === this.table.generation) return;
    this.docs.clear();
    this.groupList = undefined;
    this.resources = undefined;
    this.generation = this.table.generation;
  }

  /** The table's groups (`ServedTable.groups`), as of its current generation. */
  groups(): DiscoveredGroup[] {
    this.fresh();
    return (this.groupList ??= this.table.groups());
  }

  /** The table's discovered resources (`ServedTable.discovered`), as of its current generation. */
  discovered(): DiscoveredResource[] {
    this.fresh();
    return (this.resources ??= this.table.discovered());
  }

  /** The document named `key`, rendered by `render` unless the table is unchanged since it last was. */
  get(key: string, render: () => string, withEtag = false): RenderedDocument {
    this.fresh();
    let d = this.docs.get(key);
    if (d === undefined) {
      const body = render();
      d = { body, etag: withEtag ? `"${createHash('sha512').update(body).digest('hex').toUpperCase()}"` : '' };
      this.docs.set(key, d);
    }
    return d;
  }
}

const byTable = new WeakMap<ServedTable, RenderedDiscovery>();

/** The rendered documents of `table` (one set per table). */
export function renderedDiscovery(table: ServedTable): RenderedDiscovery {
  let r = byTable.get(table);
  if (r === undefined) byTable.set(table, (r = new RenderedDiscovery(table)));
  return r;
}
