/**
 * The strategies of the admission policy kinds (kube-apiserver's
 * `pkg/registry/admissionregistration/{validatingadmissionpolicy,...binding,mutatingadmissionpolicy,
 * ...binding,validatingwebhookconfiguration,mutatingwebhookconfiguration}/strategy.go`) over the
 * built-in kinds' common strategy: generation starts at 1 and counts spec changes (a webhook
 * configuration's: changes to its webhooks); a ValidatingAdmissionPolicy's status is written only through its status
 * subresource (and validated there); writes are validated by the kinds' native rules — which own
 * "required", so the OpenAPI schema's required-field errors are left to them.
 */
import { nameIsDNSSubdomain, type FieldError } from '../../apimachinery/index.ts';
import type { CompiledSchema } from '../../schema/index.ts';
import type { BuiltinResource } from '../builtin/catalog.ts';
import { BuiltinStrategy } from '../builtin/strategy.ts';
import { jsonEqual, metaOf } from '../meta.ts';
import { validateObjectMetaUpdateOnly, validateObjectMetaWith } from '../objectmeta-checks.ts';
import type { Obj, Subresource } from '../rest.ts';
import type { RequestContext, Strategy } from '../strategy.ts';
import {
  validateMutatingAdmissionPolicy,
  validateMutatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicy,
  validateValidatingAdmissionPolicyBinding,
  validateValidatingAdmissionPolicyStatus,
} from './validation.ts';
import { validateMutatingWebhookConfiguration, validateValidatingWebhookConfiguration } from './webhook-validation.ts';
import { admissionGroup } from './defaults.ts';

/** A kind's native validation: create (no `old`) or update. */
type NativeValidation = (obj: Obj, old?: Obj) => FieldError[];

const nativeValidation: Record<string, NativeValidation> = {
  validatingadmissionpolicies: validateValidatingAdmissionPolicy,
  validatingadmissionpolicybindings: (obj) => validateValidatingAdmissionPolicyBinding(obj),
  mutatingadmissionpolicies: validateMutatingAdmissionPolicy,
  mutatingadmissionpolicybindings: (obj) => validateMutatingAdmissionPolicyBinding(obj),
  validatingwebhookconfigurations: validateValidatingWebhookConfiguration,
  mutatingwebhookconfigurations: validateMutatingWebhookConfiguration,
};

const isWebhookConfiguration = (resource: string) => resource.endsWith('webhookconfigurations');
/** What generation counts changes of: the spec, or a webhook configuration's webhooks. */
const specOf = (obj: Obj, resource: string): unknown => (isWebhookConfiguration(resource) ? (obj.webhooks ?? null) : (obj.spec ?? null));
const notRequired = (errs: readonly FieldError[]) => errs.filter((e) => e.type !== 'FieldValueRequired');

export class AdmissionPolicyStrategy extends BuiltinStrategy {
  private readonly native: NativeValidation;
  private readonly statusOnly?: AdmissionPolicyStrategy;

  constructor(
    resource: BuiltinResource,
    private readonly kindSchema: () => CompiledSchema,
    private readonly part?: 'status',
  ) {
    super(resource, kindSchema, part);
    this.native = nativeValidation[resource.resource]!;
    if (resource.hasStatus && part === undefined) this.statusOnly = new AdmissionPolicyStrategy(resource, kindSchema, 'status');
  }

  override prepareForCreate(ctx: RequestContext, obj: Obj): void {
    super.prepareForCreate(ctx, obj);
    metaOf(obj).generation = 1;
  }

  override prepareForUpdate(ctx: RequestContext, obj: Obj, old: Obj): void {
    super.prepareForUpdate(ctx, obj, old);
    if (this.part === 'status') return;
    const g = metaOf(old).generation;
    const previous = typeof g === 'number' ? g : 0;
    metaOf(obj).generation = jsonEqual(specOf(obj, this.resource.resource), specOf(old, this.resource.resource)) ? previous : previous + 1;
  }

  override validate(_ctx: RequestContext, obj: Obj): FieldError[] {
    const p = this.kindSchema().validateParts(obj);
    return [...validateObjectMetaWith(obj, false, nameIsDNSSubdomain), ...this.native(obj), ...notRequired(p.schema), ...p.structure];
  }

  override validateUpdate(_ctx: RequestContext, obj: Obj, old: Obj): FieldError[] {
    const p = this.kindSchema().validateParts(obj, old);
    const own = this.part === 'status' ? validateValidatingAdmissionPolicyStatus(obj) : this.native(obj, old);
    return [...validateObjectMetaUpdateOnly(obj, old), ...own, ...notRequired(p.schema), ...p.structure];
  }

  override subresourceStrategy(sub: Subresource): Strategy | undefined {
    return sub === 'status' ? this.statusOnly : undefined;
  }
}

/** The strategy of an admission policy resource, or undefined for any other resource. */
export function admissionPolicyStrategy(r: BuiltinResource, schema: () => CompiledSchema): Strategy | undefined {
  return r.group === admissionGroup && r.resource in nativeValidation ? new AdmissionPolicyStrategy(r, schema) : undefined;
}
