/**
 * The selection predicate of a list or watch (storage.SelectionPredicate): a label selector and a
 * field selector matched against the strategy's attributes. Parse errors and field labels the
 * kind does not serve (`field label not supported: x`) are 400 BadRequest, as the list handler
 * answers them.
 */
import { newBadRequest } from '../apimachinery/index.ts';
import { isEmpty, matches as labelsMatch, parseSelector, type Selector } from '../apimachinery/index.ts';
import {
  customResourceFieldLabels,
  fieldsMatch,
  parseFieldSelector,
  type FieldSelector,
} from '../apimachinery/index.ts';
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
  let fields: FieldSelector | undefined;
  try {
    if (labelSelector) {
      labels = parseSelector(labelSelector);
      if (isEmpty(labels)) labels = undefined;
    }
    if (fieldSelector) {
      fields = parseFieldSelector(fieldSelector, customResourceFieldLabels(!strategy.namespaced, strategy.selectableFields));
      if (fields.requirements.length === 0 && !fields.nothing) fields = undefined;
    }
  } catch (e) {
    throw newBadRequest((e as Error).message);
  }
  if (!labels && !fields) return { empty: true, matches: () => true };
  return {
    empty: false,
    matches(obj: Obj): boolean {
      const attrs = strategy.getAttrs(obj);
      if (labels && !labelsMatch(labels, attrs.labels)) return false;
      return fields ? fieldsMatch(fields, attrs.fields) : true;
    },
  };
}
