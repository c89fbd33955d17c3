/**
 * Printers of flowcontrol.apiserver.k8s.io/v1: FlowSchemas (PRIORITYLEVEL, MATCHINGPRECEDENCE,
 * DISTINGUISHERMETHOD, MISSINGPL from the Dangling condition; a list is printed in matching
 * order) and PriorityLevelConfigurations (TYPE, shares and queuing, `<none>` when exempt).
 */
import { ageColumn, col, nameColumn, printer } from './columns.ts';
import { age, int, isSet, nameOf, obj, objs, spec, status, str, type Obj } from './cells.ts';

/** FlowSchemaSequence: by matchingPrecedence, then name. */
function flowSchemaOrder(items: Obj[]): Obj[] {
  return [...items].sort((a, b) => {
    const pa = int(spec(a).matchingPrecedence);
    const pb = int(spec(b).matchingPrecedence);
    if (pa !== pb) return pa - pb;
    const na = nameOf(a);
    const nb = nameOf(b);
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
}

export const flowSchemaPrinter = printer(
  [
    nameColumn,
    col('PriorityLevel', 'string', 'flowcontrolv1.PriorityLevelConfigurationReference.name'),
    col('MatchingPrecedence', 'string', 'flowcontrolv1.FlowSchemaSpec.matchingPrecedence'),
    col('DistinguisherMethod', 'string', 'flowcontrolv1.FlowSchemaSpec.distinguisherMethod'),
    ageColumn,
    col('MissingPL', 'string', 'references a broken or non-existent PriorityLevelConfiguration'),
  ],
  (o, now) => {
    const s = spec(o);
    const method = isSet(s.distinguisherMethod) ? str(obj(s.distinguisherMethod).type) : '<none>';
    const dangling = objs(status(o).conditions).find((c) => c.type === 'Dangling');
    return [nameOf(o), str(obj(s.priorityLevelConfiguration).name), int(s.matchingPrecedence), method, age(o, now), dangling ? str(dangling.status) : '?'];
  },
  { order: flowSchemaOrder },
);

export const priorityLevelConfigurationPrinter = printer(
  [
    nameColumn,
    col('Type', 'string', 'flowcontrolv1.PriorityLevelConfigurationSpec.type'),
    col('NominalConcurrencyShares', 'string', 'flowcontrolv1.LimitedPriorityLevelConfiguration.nominalConcurrencyShares'),
    col('Queues', 'string', 'flowcontrolv1.QueuingConfiguration.queues'),
    col('HandSize', 'string', 'flowcontrolv1.QueuingConfiguration.handSize'),
    col('QueueLengthLimit', 'string', 'flowcontrolv1.QueuingConfiguration.queueLengthLimit'),
    ageColumn,
  ],
  (o, now) => {
    const s = spec(o);
    let ncs: unknown = '<none>';
    let queues: unknown = '<none>';
    let handSize: unknown = '<none>';
    let queueLengthLimit: unknown = '<none>';
    if (isSet(s.limited)) {
      const limited = obj(s.limited);
      ncs = int(limited.nominalConcurrencyShares);
      const queuing = obj(limited.limitResponse).queuing;
      if (isSet(queuing)) {
        queues = int(obj(queuing).queues);
        handSize = int(obj(queuing).handSize);
        queueLengthLimit = int(obj(queuing).queueLengthLimit);
      }
    }
    return [nameOf(o), str(s.type), ncs, queues, handSize, queueLengthLimit, age(o, now)];
  },
);
