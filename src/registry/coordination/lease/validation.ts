/**
 * Lease's native rules (pkg/apis/coordination/validation ValidateLeaseSpec): a positive
 * duration, non-negative transitions, a known or domain-qualified coordination strategy, and a
 * preferred holder only with a strategy.
 */
import { forbidden, invalid, notSupported, Path, type FieldError } from '../../../apimachinery/index.ts';
import { isQualifiedName } from '../../../apimachinery/index.ts';
import type { NativeRules } from '../../builtin/native.ts';
import { num, rec } from '../../fieldvalues/fields.ts';
import type { Obj } from '../../rest.ts';

const specPath = Path.of('spec');
/** The strategies Kubernetes itself defines (coordination.OldestEmulationVersion). */
const leaseStrategies = ['OldestEmulationVersion'];

/** ValidateCoordinatedLeaseStrategy */
export function validateCoordinatedLeaseStrategy(strategy: string, fldPath: Path): FieldError[] {
  if (strategy.split('/').length === 1) {
    return leaseStrategies.includes(strategy) ? [] : [notSupported(fldPath, strategy, leaseStrategies)];
  }
  return isQualifiedName(strategy).map((msg) => invalid(fldPath, strategy, msg));
}

export function validateLeaseSpec(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const errs: FieldError[] = [];
  const duration = num(spec.leaseDurationSeconds);
  if (duration !== undefined && duration <= 0) errs.push(invalid(specPath.child('leaseDurationSeconds'), duration, 'must be greater than 0'));
  const transitions = num(spec.leaseTransitions);
  if (transitions !== undefined && transitions < 0) {
    errs.push(invalid(specPath.child('leaseTransitions'), transitions, 'must be greater than or equal to 0'));
  }
  const strategy = typeof spec.strategy === 'string' ? spec.strategy : undefined;
  if (strategy !== undefined) errs.push(...validateCoordinatedLeaseStrategy(strategy, specPath.child('strategy')));
  if (typeof spec.preferredHolder === 'string' && spec.preferredHolder !== '' && (strategy === undefined || strategy === '')) {
    errs.push(forbidden(specPath.child('preferredHolder'), 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

export const leaseRules: NativeRules = {
  validate: (_ctx, obj) => validateLeaseSpec(obj),
  validateUpdate: (_ctx, obj) => validateLeaseSpec(obj),
};
