/**
 * core/v1 LimitRange's defaulting: SetDefaults_LimitRangeItem, for items of type Container only —
 * the default limit from max where unset, then the default request from the default limit, then
 * from min. Go creates both maps (empty ones are then omitted from JSON, as here).
 */
import type { Obj } from '../../rest.ts';
import { asObject, child, items, type Fields } from '../../defaulting/fields.ts';

/** Copies into `to` every key of `from` that `to` lacks. */
function fillFrom(to: Fields, from: Fields | undefined): void {
  if (from === undefined) return;
  for (const [k, v] of Object.entries(from)) if (!(k in to)) to[k] = v;
}

/** MUTATES obj. */
export function defaultLimitRange(obj: Obj): void {
  for (const item of items(child(obj, 'spec'), 'limits')) {
    if (item.type !== 'Container') continue;
    const def = asObject(item.default) ?? {};
    const defReq = asObject(item.defaultRequest) ?? {};
    fillFrom(def, asObject(item.max));
    fillFrom(defReq, def);
    fillFrom(defReq, asObject(item.min));
    if (Object.keys(def).length > 0) item.default = def;
    else delete item.default;
    if (Object.keys(defReq).length > 0) item.defaultRequest = defReq;
    else delete item.defaultRequest;
  }
}

export const limitRangeDefaulters = { '/v1/limitranges': defaultLimitRange };
