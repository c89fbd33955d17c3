/**
 * Kubernetes' static cost figures (k8s.io/apiserver/pkg/cel/library cost_test.go), run as data from
 * testdata/cel-checker/k8s_cost_cases.json with kubernetesCallCost, Kubernetes' presence-test
 * setting and the test's size estimator. The library functions are declared here with the
 * signatures Kubernetes gives them (only their types matter to the estimate).
 * Prints passed/failed/skipped counts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from '../syntax/parser.ts';
import { check } from './checker.ts';
import { CheckEnv } from './env.ts';
import { estimateCost, type AstNode, type SizeEstimator } from './cost.ts';
import { kubernetesCallCost } from './kubernetes-cost.ts';
import { optionalLibrary, standardLibrary } from '../lib/std/decls.ts';
import type { Library, OverloadDecl } from '../lib/decls.ts';
import {
  BoolType,
  DoubleType,
  IntType,
  StringType,
  kindOf,
  listOf,
  mapOf,
  opaque,
  optionalOf,
  structType,
  typeParam,
  type Type,
} from './types.ts';

const dataDir = fileURLToPath(new URL('../../../testdata/cel-checker/', import.meta.url));
const table = JSON.parse(readFileSync(dataDir + 'k8s_cost_cases.json', 'utf8')) as {
  cases: { suite: string; expr: string; wanted: [string, string] }[];
  sizes: { cases: { name: string; target: [number, number]; args: [number, number][]; want: [number, number] }[] };
};

const A = typeParam('A');
const K = typeParam('K');
const V = typeParam('V');
const UrlType = structType('kubernetes.URL');
const Quantity = structType('kubernetes.Quantity');
const IpType = opaque('net.IP');
const Semver = structType('kubernetes.Semver');
const NamedFormat = structType('kubernetes.NamedFormat');
const Authorizer = structType('kubernetes.authorization.Authorizer');
const PathCheck = structType('kubernetes.authorization.PathCheck');
const GroupCheck = structType('kubernetes.authorization.GroupCheck');
const ResourceCheck = structType('kubernetes.authorization.ResourceCheck');
const Decision = structType('kubernetes.authorization.Decision');
const CidrType = opaque('net.CIDR');

const member = (id: string, params: Type[], result: Type): OverloadDecl => ({ id, receiver: true, params, result });
const global = (id: string, params: Type[], result: Type): OverloadDecl => ({ id, params, result });

/** The Kubernetes and cel-go extension functions the cases call, by their upstream signatures. */
const kubernetesFunctions: Library = {
  name: 'test.kubernetes',
  functions: [
    { name: 'lowerAscii', overloads: [member('string_lower_ascii', [StringType], StringType)] },
    { name: 'upperAscii', overloads: [member('string_upper_ascii', [StringType], StringType)] },
    { name: 'strings.quote', overloads: [global('strings_quote', [StringType], StringType)] },
    {
      name: 'replace',
      overloads: [
        member('string_replace_string_string', [StringType, StringType, StringType], StringType),
        member('string_replace_string_string_int', [StringType, StringType, StringType, IntType], StringType),
      ],
    },
    {
      name: 'split',
      overloads: [
        member('string_split_string', [StringType, StringType], listOf(StringType)),
        member('string_split_string_int', [StringType, StringType, IntType], listOf(StringType)),
      ],
    },
    {
      name: 'substring',
      overloads: [
        member('string_substring_int', [StringType, IntType], StringType),
        member('string_substring_int_int', [StringType, IntType, IntType], StringType),
      ],
    },
    { name: 'trim', overloads: [member('string_trim', [StringType], StringType)] },
    {
      name: 'join',
      overloads: [
        member('list_join', [listOf(StringType)], StringType),
        member('list_join_string', [listOf(StringType), StringType], StringType),
      ],
    },
    { name: 'find', overloads: [member('string_find_n', [StringType, StringType], StringType)] },
    {
      name: 'findAll',
      overloads: [
        member('string_find_all', [StringType, StringType], listOf(StringType)),
        member('string_find_all_n', [StringType, StringType, IntType], listOf(StringType)),
      ],
    },
    { name: 'jsonpatch.escapeKey', overloads: [global('string_to_jsonpatch_key', [StringType], StringType)] },
    { name: 'url', overloads: [global('string_to_url', [StringType], UrlType)] },
    ...['getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery'].map((name) => ({
      name,
      overloads: [member(`url_${name}`, [UrlType], StringType)],
    })),
    { name: 'quantity', overloads: [global('string_to_quantity', [StringType], Quantity)] },
    { name: 'isQuantity', overloads: [global('is_quantity_string', [StringType], BoolType)] },
    {
      name: 'isLessThan',
      overloads: [
        member('quantity_is_less_than', [Quantity, Quantity], BoolType),
        member('semver_is_less_than', [Semver, Semver], BoolType),
      ],
    },
    {
      name: 'isGreaterThan',
      overloads: [
        member('quantity_is_greater_than', [Quantity, Quantity], BoolType),
        member('semver_is_greater_than', [Semver, Semver], BoolType),
      ],
    },
    {
      name: 'compareTo',
      overloads: [
        member('quantity_compare_to', [Quantity, Quantity], IntType),
        member('semver_compare_to', [Semver, Semver], IntType),
      ],
    },
    { name: 'semver', overloads: [global('string_to_semver', [StringType], Semver)] },
    { name: 'isSemver', overloads: [global('is_semver', [StringType], BoolType)] },
    ...['major', 'minor', 'patch'].map((name) => ({ name, overloads: [member(`semver_${name}`, [Semver], IntType)] })),
    { name: 'format.named', overloads: [global('format_named', [StringType], optionalOf(NamedFormat))] },
    {
      name: 'validate',
      overloads: [member('format_validate', [NamedFormat, StringType], optionalOf(listOf(StringType)))],
    },
    {
      name: 'add',
      overloads: [
        member('quantity_add', [Quantity, Quantity], Quantity),
        member('quantity_add_int', [Quantity, IntType], Quantity),
      ],
    },
    {
      name: 'sub',
      overloads: [
        member('quantity_sub', [Quantity, Quantity], Quantity),
        member('quantity_sub_int', [Quantity, IntType], Quantity),
      ],
    },
    { name: 'asInteger', overloads: [member('quantity_get_int', [Quantity], IntType)] },
    { name: 'isInteger', overloads: [member('quantity_is_integer', [Quantity], BoolType)] },
    { name: 'asApproximateFloat', overloads: [member('quantity_get_float', [Quantity], DoubleType)] },
    { name: 'sum', overloads: [member('list_sum', [listOf(A)], A)] },
    { name: 'isSorted', overloads: [member('list_is_sorted', [listOf(A)], BoolType)] },
    { name: 'max', overloads: [member('list_max', [listOf(A)], A)] },
    { name: 'min', overloads: [member('list_min', [listOf(A)], A)] },
    { name: 'indexOf', overloads: [member('list_index_of', [listOf(A), A], IntType)] },
    { name: 'lastIndexOf', overloads: [member('list_last_index_of', [listOf(A), A], IntType)] },
    {
      name: 'ip',
      overloads: [global('string_to_ip', [StringType], IpType), member('cidr_ip', [CidrType], IpType)],
    },
    { name: 'family', overloads: [member('ip_family', [IpType], IntType)] },
    { name: 'ip.isCanonical', overloads: [global('ip_is_canonical', [StringType], BoolType)] },
    ...['isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast'].map((name) => ({
      name,
      overloads: [member(`ip_${name}`, [IpType], BoolType)],
    })),
    { name: 'isIP', overloads: [global('is_ip', [StringType], BoolType)] },
    { name: 'cidr', overloads: [global('string_to_cidr', [StringType], CidrType)] },
    {
      name: 'containsIP',
      overloads: [
        member('cidr_contains_ip_string', [CidrType, StringType], BoolType),
        member('cidr_contains_ip_ip', [CidrType, IpType], BoolType),
      ],
    },
    {
      name: 'containsCIDR',
      overloads: [
        member('cidr_contains_cidr_string', [CidrType, StringType], BoolType),
        member('cidr_contains_cidr', [CidrType, CidrType], BoolType),
      ],
    },
    { name: 'prefixLength', overloads: [member('cidr_prefix_length', [CidrType], IntType)] },
    { name: 'masked', overloads: [member('cidr_masked', [CidrType], CidrType)] },
    { name: 'isCIDR', overloads: [global('is_cidr', [StringType], BoolType)] },
    {
      name: 'string',
      overloads: [global('ip_to_string', [IpType], StringType), global('cidr_to_string', [CidrType], StringType)],
    },
    { name: 'path', overloads: [member('authorizer_path', [Authorizer, StringType], PathCheck)] },
    { name: 'group', overloads: [member('authorizer_group', [Authorizer, StringType], GroupCheck)] },
    {
      name: 'serviceAccount',
      overloads: [member('authorizer_serviceaccount', [Authorizer, StringType, StringType], Authorizer)],
    },
    { name: 'resource', overloads: [member('groupcheck_resource', [GroupCheck, StringType], ResourceCheck)] },
    ...['subresource', 'namespace', 'name', 'fieldSelector', 'labelSelector'].map((name) => ({
      name,
      overloads: [member(`resourcecheck_${name}`, [ResourceCheck, StringType], ResourceCheck)],
    })),
    {
      name: 'check',
      overloads: [
        member('pathcheck_check', [PathCheck, StringType], Decision),
        member('resourcecheck_check', [ResourceCheck, StringType], Decision),
      ],
    },
    { name: 'allowed', overloads: [member('decision_allowed', [Decision], BoolType)] },
    { name: 'errored', overloads: [member('decision_errored', [Decision], BoolType)] },
    { name: 'error', overloads: [member('decision_error', [Decision], StringType)] },
    { name: 'reason', overloads: [member('decision_reason', [Decision], StringType)] },
    {
      name: 'cel.@mapInsert',
      overloads: [
        global('@mapInsert_map_key_value', [mapOf(K, V), K, V], mapOf(K, V)),
        global('@mapInsert_map_map', [mapOf(K, V), mapOf(K, V)], mapOf(K, V)),
      ],
    },
  ],
};

/** Kubernetes' testCostEstimator: strings and bytes are at most 12 long. */
const sizeEstimator: SizeEstimator = (node) => {
  const k = kindOf(node.type);
  return k === 'string' || k === 'bytes' ? { min: 0n, max: 12n } : undefined;
};

test('Kubernetes estimated cost table', () => {
  const env = new CheckEnv({
    libraries: [standardLibrary, optionalLibrary, kubernetesFunctions],
    variables: { authorizer: Authorizer },
    crossTypeNumericComparisons: true,
  });
  let passed = 0;
  const failed: string[] = [];
  for (const c of table.cases) {
    const p = parse(c.expr);
    const r = p.parsed && check(p.parsed, env);
    if (!r?.checked) {
      failed.push(`${c.suite} ${c.expr}: ${p.issues.toString() || r?.issues.toString()}`);
      continue;
    }
    const est = estimateCost(r.checked, { sizeEstimator, callCost: kubernetesCallCost, presenceTestHasCost: false });
    const got = [est.min.toString(), est.max.toString()];
    if (got[0] !== c.wanted[0] || got[1] !== c.wanted[1]) {
      failed.push(`${c.suite} ${c.expr}: got [${got.join(', ')}], want [${c.wanted.join(', ')}]`);
    } else {
      passed++;
    }
  }
  console.log(`Kubernetes cost table: ${passed} passed, ${failed.length} failed, 0 skipped`);
  assert.deepEqual(failed, []);
});

test('Kubernetes replace() result sizes (TestSize)', () => {
  const node = ([min, max]: [number, number]): AstNode => ({
    path: undefined,
    type: StringType,
    expr: undefined,
    computedSize: { min: BigInt(min), max: BigInt(max) },
  });
  for (const c of table.sizes.cases) {
    const est = kubernetesCallCost('replace', '', node(c.target), c.args.map(node), (n) => n.computedSize!);
    assert.deepEqual(est?.resultSize, { min: BigInt(c.want[0]), max: BigInt(c.want[1]) }, c.name);
  }
});
