/**
 * The admission chain (k8s.io/apiserver's admission.chainAdmissionHandler): plugins in a fixed
 * order, each handling some operations; `admit` runs every mutating plugin in order, `validate`
 * every validating one. The registry calls the chain through its `Admission` seam; a new plugin is
 * one module here, added to the list in the composition root.
 */
import type { Admission, AdmissionAttributes, Operation } from '../registry/index.ts';

/** One admission plugin (admission.Interface with MutationInterface and/or ValidationInterface). */
export interface Plugin {
  readonly name: string;
  /** Handles(operation): the plugin is skipped for other operations. */
  handles(op: Operation): boolean;
  /** Mutating admission: may change `a.object`; throws a StatusError to refuse. */
  admit?(a: AdmissionAttributes): Promise<void>;
  /**
   * False when `admit` cannot change `a.object` for this request (it only refuses, or nothing
   * configured applies): a cheap check, before admit runs. Absent: it may.
   */
  mayMutate?(a: AdmissionAttributes): boolean;
  /** Validating admission: throws a StatusError to refuse. */
  validate?(a: AdmissionAttributes): Promise<void>;
}

/** The chain of `plugins`, in order. */
export function admissionChain(plugins: readonly Plugin[]): Admission {
  const mutating = plugins.filter((p) => p.admit !== undefined);
  const validating = plugins.filter((p) => p.validate !== undefined);
  return {
    async admit(a) {
      for (const p of mutating) if (p.handles(a.operation)) await p.admit!(a);
    },
    async validate(a) {
      for (const p of validating) if (p.handles(a.operation)) await p.validate!(a);
    },
    mayMutate(a) {
      for (const p of mutating) if (p.handles(a.operation) && p.mayMutate?.(a) !== false) return true;
      return false;
    },
  };
}
