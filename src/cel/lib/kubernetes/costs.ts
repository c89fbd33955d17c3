/**
 * Runtime call costs shared by the Kubernetes libraries (k8s.io/apiserver/pkg/cel/library cost.go,
 * `CostEstimator.CallCost`): most parsers cost one string traversal of their first argument.
 */
import { actualSize } from '../../eval/planner.ts';
import type { Val } from '../../eval/values.ts';

/** cel-go's common.StringTraversalCostFactor. */
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
/** cel-go's common.RegexStringLengthCostFactor. */
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;

/** ceil(size(first argument) × 0.1): the cost of parsing a string. */
export const stringCost = (...a: Val[]): number => Math.ceil(actualSize(a[0]!) * STRING_TRAVERSAL_COST_FACTOR);

/** A nominal cost of 1. */
export const nominalCost = (): number => 1;
