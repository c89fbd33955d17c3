/**
 * Service's strategy on top of the common one (pkg/registry/core/service/strategy.go): creates
 * keep clusterIP and clusterIPs in step, updates also drop what a type change leaves behind,
 * validation is ValidateServiceCreate / ValidateServiceUpdate, and the status endpoint checks the
 * load balancer status (ValidateServiceStatusUpdate).
 */
import type { NativeRules } from '../../builtin/native.ts';
import { dropTypeDependentFields, normalizeClusterIPs } from './prepare.ts';
import { validateServiceCreate, validateServiceStatusUpdate, validateServiceUpdate } from './validation.ts';

export const serviceRules: NativeRules = {
  prepareForCreate(_ctx, obj) {
    // Status = ServiceStatus{}: Go writes its loadBalancer struct even when empty.
    obj.status = { loadBalancer: {} };
    normalizeClusterIPs(obj, undefined);
  },
  prepareForUpdate(_ctx, obj, old) {
    normalizeClusterIPs(obj, old);
    dropTypeDependentFields(obj, old);
  },
  validate: (_ctx, obj) => validateServiceCreate(obj),
  validateUpdate: (_ctx, obj, old) => validateServiceUpdate(obj, old),
  status: {
    validateUpdate: (_ctx, obj, old) => validateServiceStatusUpdate(obj, old),
  },
};
