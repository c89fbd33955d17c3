/**
 * The selection predicate of a list or watch (storage.SelectionPredicate): a label selector and a
 * field selector matched against the strategy's attributes. Parse errors and field labels the
 * kind does not serve are 400 BadRequest with upstream's messages (`field label not supported: x`).
 */
import { newBadRequest } from '../apimachinery/status.ts';
import { isEmpty, matches as labelsMatch, parseSelector, type Selector } from '../apimachinery/labels/selector.ts';
import { fieldsMatch, parseFieldSelector, type FieldRequirement } from './field-selector.ts';
import type { Obj } from './rest.ts';
import type { Strategy } from './strategy.ts';

export interface Predicate {
  /** Nothing is filtered (remainingItemCount is only reported then). */
  readonly empty: boolean;
  matches(obj: Obj): boolean;
}

/** Builds the predicate; throws 400 on a malformed selector or an unsupported field label. */
export function buildPredicate(strategy: Strategy, labelSelector?: string, fieldSelector?: string): Predicate {
  let labels: Selector | undefined;
  let fields: FieldRequirement[] = [];
  try {
    if (labelSelector) {
      labels = parseSelector(labelSelector);
      if (isEmpty(labels)) labels = undefined;
    }
    if (fieldSelector) fields = parseFieldSelector(fieldSelector);
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
  const supported = new Set(['metadata.name', ...(strategy.namespaced ? ['metadata.namespace'] : []), ...strategy.selectableFields]);
  for (const r of fields) {
    if (!supported.has(r.field)) throw newBadRequest(`field label not supported: ${r.field}`);
  }
  if (!labels && fields.length === 0) return { empty: true, matches: () => true };
  return {
    empty: false,
    matches(obj: Obj): boolean {
      const attrs = strategy.getAttrs(obj);
      if (labels && !labelsMatch(labels, attrs.labels)) return false;
      return fieldsMatch(fields, attrs.fields);
    },
  };
}
