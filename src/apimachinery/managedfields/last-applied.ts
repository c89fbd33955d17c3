/**
 * Moving from client-side to server-side apply (managedfields/internal `lastappliedmanager.go`,
 * `lastappliedupdater.go`): when `kubectl` applies server-side and conflicts only with fields that
 * its client-side `kubectl.kubernetes.io/last-applied-configuration` annotation holds unchanged
 * (owned, typically, by `kubectl-client-side-apply` or `before-first-apply`), the apply is forced;
 * and while the annotation exists, a server-side apply by `kubectl` keeps it up to date, so that a
 * later client-side apply still sees what was applied.
 */
import { goJSON } from '../field/govalue.ts';
import { ConflictsError } from '../smd/merge/conflict.ts';
import type { FieldSet } from '../smd/fieldpath/set.ts';
import { conflictsToSet } from '../smd/merge/conflict.ts';
import type { Managed } from './entries.ts';
import { apiVersionOf, deepCopy, metadataOf, type Manager, type Obj, type TypeConverter } from './manager.ts';

export const lastAppliedConfigAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** The apply manager name whose client-side history is honoured. */
const kubectl = 'kubectl';

const totalAnnotationSizeLimit = 256 * 1024;

function annotationsOf(obj: Obj): Record<string, string> | undefined {
  const a = metadataOf(obj)?.annotations;
  return a !== null && typeof a === 'object' ? (a as Record<string, string>) : undefined;
}

function lastApplied(obj: Obj): string | undefined {
  const v = annotationsOf(obj)?.[lastAppliedConfigAnnotation];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

export class LastAppliedManager implements Manager {
  constructor(
    readonly next: Manager,
    readonly typeConverter: TypeConverter,
    readonly groupVersion: string,
    readonly convertToVersion: (obj: Obj, gv: string) => Obj,
  ) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    return this.next.update(liveObj, newObj, managed, manager);
  }

  apply(liveObj: Obj, newObj: Obj, managed: Managed, manager: string, force: boolean) {
    try {
      return this.next.apply(liveObj, newObj, managed, manager, force);
    } catch (e) {
      if (manager !== kubectl || !(e instanceof ConflictsError)) throw e;
      let allowed: FieldSet;
      try {
        allowed = this.allowedConflictsFromLastApplied(liveObj);
      } catch {
        throw e;
      }
      if (!conflictsToSet(e.conflicts).difference(allowed).empty()) {
        throw new ConflictsError(e.conflicts.filter((c) => !allowed.has(c.path)));
      }
      return this.next.apply(liveObj, newObj, managed, manager, true);
    }
  }

  /** The fields of the last-applied annotation whose values the live object still has. */
  private allowedConflictsFromLastApplied(liveObj: Obj): FieldSet {
    const text = lastApplied(liveObj);
    if (text === undefined) throw new Error('no last applied annotation');
    const liveTyped = this.typeConverter.objectToTyped(this.convertToVersion(liveObj, this.groupVersion));
    const last = JSON.parse(text) as Obj;
    if (apiVersionOf(last) !== this.groupVersion) {
      throw new Error(`expected version of last applied to match live object '${this.groupVersion}', but got '${apiVersionOf(last)}'`);
    }
    const lastTyped = this.typeConverter.objectToTyped(last);
    const c = lastTyped.compare(liveTyped);
    return lastTyped.toFieldSet().difference(c.modified).difference(c.added).difference(c.removed);
  }
}

/** SetLastApplied: sets the annotation unless that would make the annotations too large. Mutates obj. */
export function setLastApplied(obj: Obj, value: string): void {
  const annotations: Record<string, string | undefined> = { ...(annotationsOf(obj) ?? {}), [lastAppliedConfigAnnotation]: value };
  let size = 0;
  for (const [k, v] of Object.entries(annotations)) size += Buffer.byteLength(k) + Buffer.byteLength(String(v));
  if (size > totalAnnotationSizeLimit) delete annotations[lastAppliedConfigAnnotation];
  const m = metadataOf(obj) ?? {};
  m.annotations = annotations;
  obj.metadata = m;
}

/** The applied object without its own last-applied annotation, as the annotation's value. */
function buildLastApplied(obj: Obj): string {
  const copy = deepCopy(obj);
  const a = annotationsOf(copy);
  if (a !== undefined) Reflect.deleteProperty(a, lastAppliedConfigAnnotation);
  // runtime.Encode with the unstructured JSON scheme: sorted keys and a final newline.
  return goJSON(copy) + '\n';
}

export class LastAppliedUpdater implements Manager {
  constructor(readonly next: Manager) {}

  update(liveObj: Obj, newObj: Obj, managed: Managed, manager: string) {
    return this.next.update(liveObj, newObj, managed, manager);
  }

  apply(liveObj: Obj, newObj: Obj, managed: Managed, manager: string, force: boolean) {
    const r = this.next.apply(liveObj, newObj, managed, manager, force);
    if (manager === kubectl && r.object !== undefined && lastApplied(r.object) !== undefined) setLastApplied(r.object, buildLastApplied(newObj));
    return r;
  }
}
