/** The garbage collector: ownerReferences followed across every served kind (see collector.ts). */
export { startGarbageCollector, type CollectedKinds, type GarbageCollector, type GarbageCollectorOptions } from './collector.ts';
