/**
 * Admission policy benchmark (`npm run bench:admission`): what ValidatingAdmissionPolicies cost a
 * write, in the same run. Two servers (each its own SQLite store, over loopback HTTP): one with no
 * policies, one with 10 policies matching every ConfigMap create — 5 of them reading a ConfigMap
 * param — each bound with Deny. CREATES ConfigMaps are created with 16 concurrent clients on each,
 * in back-to-back pairs BENCH_RUNS times (default 5) after an untimed warm-up; medians reported.
 *
 * Ends with `admission overhead ratio: X` (creates/s with policies over creates/s without; goal
 * >= 0.5).
 */
import { httpCall } from './lib/http-call.ts';
import { must, pairedCreates, serveInProcess, type Served } from './lib/in-process.ts';

const CREATES = Number(process.env.BENCH_CREATES ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CLIENTS = 16;

const VAP = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const VAPB = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';

/** 10 policies on ConfigMap creates, 5 with a ConfigMap param, each bound with Deny. */
async function installPolicies(s: Served): Promise<void> {
  await must(s, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'limits' }, data: { maxKeys: '10', prefix: 'bench' } });
  for (let i = 0; i < 10; i++) {
    const withParams = i < 5;
    const name = `bench-${i}.example.com`;
    await must(s, 'POST', VAP, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        ...(withParams ? { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } : {}),
        matchConstraints: {
          resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
          // The param itself is not subject to the policies.
          objectSelector: { matchExpressions: [{ key: 'bench-param', operator: 'DoesNotExist' }] },
        },
        variables: [{ name: 'keys', expression: "has(object.data) ? object.data.size() : 0" }],
        validations: withParams
          ? [
              { expression: 'variables.keys <= int(params.data.maxKeys)', messageExpression: "'at most ' + params.data.maxKeys + ' keys'" },
              { expression: 'object.metadata.name.startsWith(params.data.prefix)' },
            ]
          : [
              { expression: `variables.keys <= ${20 + i}` },
              { expression: "!has(object.metadata.labels) || !('forbidden' in object.metadata.labels)", reason: 'Forbidden' },
            ],
      },
    });
    await must(s, 'POST', VAPB, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: `${name}-binding` },
      spec: {
        policyName: name,
        validationActions: ['Deny'],
        ...(withParams ? { paramRef: { name: 'limits', namespace: 'default', parameterNotFoundAction: 'Deny' } } : {}),
      },
    });
  }
}

async function main(): Promise<void> {
  const none = await serveInProcess('bench-admission-');
  const policies = await serveInProcess('bench-admission-');
  try {
    await installPolicies(policies);
    // A denied create proves the policies are in force before anything is timed.
    const refused = await httpCall(policies.agent, policies.base, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'not-bench' } });
    if (refused.status !== 422) throw new Error(`the policies did not refuse a create: ${refused.status} ${refused.text}`);
    const r = await pairedCreates(none, policies, { runs: RUNS, n: CREATES, clients: CLIENTS });
    console.log(`ConfigMap creates, ${CLIENTS} clients, ${CREATES} per run, ${RUNS} runs (medians):`);
    console.log(`  no policies                        ${r.plain.toFixed(0)} creates/s`);
    console.log(`  10 policies (5 with params), Deny  ${r.measured.toFixed(0)} creates/s`);
    console.log(`admission overhead ratio: ${r.ratio.toFixed(2)}`);
  } finally {
    await none.stop();
    await policies.stop();
  }
}

await main();
