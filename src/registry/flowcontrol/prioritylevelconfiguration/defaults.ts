/**
 * flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration's defaulting: a limited level's
 * nominalConcurrencyShares 30 and lendablePercent 0 when unset (0 shares stay 0 in v1), its
 * queuing's handSize 8, queues 64 and queueLengthLimit 50 when 0; an exempt level's
 * nominalConcurrencyShares and lendablePercent 0 (SetDefaults_LimitedPriorityLevelConfiguration,
 * _QueuingConfiguration, _ExemptPriorityLevelConfiguration).
 */
import type { Obj } from '../../rest.ts';
import { child, onSpec, setDefault } from '../../defaulting/fields.ts';

/** MUTATES obj. */
export const defaultPriorityLevelConfiguration = onSpec((spec) => {
  const limited = child(spec, 'limited');
  if (limited) {
    setDefault(limited, 'nominalConcurrencyShares', 30);
    setDefault(limited, 'lendablePercent', 0);
    const queuing = child(child(limited, 'limitResponse'), 'queuing');
    if (queuing) {
      setDefault(queuing, 'handSize', 8, 0);
      setDefault(queuing, 'queues', 64, 0);
      setDefault(queuing, 'queueLengthLimit', 50, 0);
    }
  }
  const exempt = child(spec, 'exempt');
  if (exempt) {
    setDefault(exempt, 'nominalConcurrencyShares', 0);
    setDefault(exempt, 'lendablePercent', 0);
  }
});

export const priorityLevelConfigurationDefaulters: Record<string, (obj: Obj) => void> = {
  'flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations': defaultPriorityLevelConfiguration,
};
