/**
 * The Webhook conversion strategy (apiextensions' webhookConverter.Convert): the objects not yet
 * at the desired version go in one ConversionReview to the CRD's `spec.conversion.webhook`
 * clientConfig (url or service, caBundle) through the server's webhook client; the answer is
 * checked as upstream checks it — the review, the number of objects, each object's apiVersion and
 * kind, its kind, name, namespace and uid unchanged — and each converted object gets the
 * original's metadata back but for its labels and annotations. Every failure is the error
 * upstream returns (`conversion webhook for stable.example.com/v1beta1, Kind=CronTab failed:
 * ...`), which the API answers with 500.
 */
import { failureStatus, StatusError } from '../../../apimachinery/index.ts';
import type { Obj } from '../../rest.ts';
import { isObject } from '../../crd/internal.ts';
import { restoreObjectMeta, validateConvertedObject } from './restore-meta.ts';
import { conversionReview, convertedObjects, gvkString, newReviewUID, objectsToConvert, reviewVersion } from './review.ts';

/**
 * How conversion webhooks are called: an HTTPS POST of `body` to a clientConfig (url or
 * service, caBundle), resolving with the decoded JSON answer. The admission webhooks' client is
 * one; its failures are Errors whose message is `failed to call webhook: <Go's reason>`.
 */
export interface ConversionWebhookClient {
  post(clientConfig: Obj, timeoutSeconds: number | undefined, body: Obj): Promise<unknown>;
}

/** The REST client's timeout for conversion webhooks (webhook.defaultRequestTimeout). */
export const conversionWebhookTimeoutSeconds = 30;

/** What the admission client puts before the REST client's own error. */
const callPrefix = 'failed to call webhook: ';

/** A conversion failure: a plain error upstream, which the API answers as 500 with its text. */
export function conversionError(message: string): StatusError {
  return new StatusError(failureStatus(500, '', message));
}

/** Unstructured.UnmarshalJSON of a converted object: an object with a kind. */
function rawObject(raw: unknown): Obj | { error: string } {
  if (!isObject(raw)) return { error: `json: cannot unmarshal ${Array.isArray(raw) ? 'array' : raw === null ? 'null' : typeof raw} into Go value of type map[string]interface {}` };
  if (typeof raw.kind !== 'string' || raw.kind === '') return { error: `Object 'Kind' is missing in '${JSON.stringify(raw)}'` };
  return raw;
}

export interface WebhookConversionConfig {
  client: ConversionWebhookClient;
  /** spec.conversion.webhook.clientConfig */
  clientConfig: Obj;
  /** spec.conversion.webhook.conversionReviewVersions */
  conversionReviewVersions: readonly unknown[];
}

export class WebhookConverter {
  constructor(private readonly cfg: WebhookConversionConfig) {}

  /**
   * Converts `objects` to `toAPIVersion` (as the list form when `list`, one object otherwise);
   * resolves with them in order, those already there unchanged. Rejects with the 500 of upstream's
   * error.
   */
  async convert(objects: readonly Obj[], toAPIVersion: string, list: boolean): Promise<Obj[]> {
    const pending = objectsToConvert(objects, toAPIVersion);
    if (pending.length === 0) return [...objects];
    // The conversion is named by the object's version and kind as it was read.
    const first = pending[0]!;
    const gvk = gvkString(first.apiVersion, first.kind);
    const version = reviewVersion(this.cfg.conversionReviewVersions);
    if (typeof version !== 'string') throw conversionError(version.error);
    const uid = newReviewUID();
    let body: unknown;
    try {
      body = await this.cfg.client.post(this.cfg.clientConfig, conversionWebhookTimeoutSeconds, conversionReview(version, uid, toAPIVersion, pending));
    } catch (e) {
      const msg = e instanceof Error ? e.message : String(e);
      throw conversionError(`conversion webhook for ${gvk} failed: ${msg.startsWith(callPrefix) ? msg.slice(callPrefix.length) : msg}`);
    }
    const answer = convertedObjects(version, uid, body);
    if ('error' in answer) throw conversionError(`conversion webhook for ${gvk} failed: ${answer.error}`);
    if (answer.objects.length !== pending.length) {
      throw conversionError(`conversion webhook for ${gvk} returned ${answer.objects.length} objects, expected ${pending.length}`);
    }
    return list ? this.fillList(objects, answer.objects, toAPIVersion, gvk) : [this.single(first, answer.objects[0], toAPIVersion, gvk)];
  }

  /** The list form: each converted object checked and put in its original's place. */
  private fillList(objects: readonly Obj[], converted: unknown[], toAPIVersion: string, gvk: string): Obj[] {
    let index = 0;
    return objects.map((original) => {
      if (original.apiVersion === toAPIVersion) return original;
      const at = `conversion webhook for ${gvk} returned invalid converted object at index ${index}`;
      const out = rawObject(converted[index]);
      if ('error' in out) throw conversionError(`${at}: ${String(out.error)}`);
      if (out.apiVersion !== toAPIVersion) throw conversionError(`${at}: invalid groupVersion (expected ${toAPIVersion}, received ${String(out.apiVersion ?? '')})`);
      if (out.kind !== original.kind) throw conversionError(`${at}: invalid kind (expected ${String(original.kind ?? '')}, received ${String(out.kind)})`);
      const bad = validateConvertedObject(original, out);
      if (bad !== undefined) throw conversionError(`${at}: ${bad}`);
      const meta = restoreObjectMeta(original, out);
      if (meta !== undefined) throw conversionError(`conversion webhook for ${gvk} returned invalid metadata in object at index ${index}: ${meta}`);
      index++;
      return out;
    });
  }

  /** The single-object form. */
  private single(original: Obj, converted: unknown, toAPIVersion: string, gvk: string): Obj {
    const out = rawObject(converted);
    // Upstream returns this one without its prefix.
    if ('error' in out) throw conversionError(String(out.error));
    if (out.apiVersion !== toAPIVersion) {
      throw conversionError(`conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${toAPIVersion}, received ${String(out.apiVersion ?? '')})`);
    }
    if (out.kind !== original.kind) {
      throw conversionError(`conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected ${String(original.kind ?? '')}, received ${String(out.kind)})`);
    }
    const bad = validateConvertedObject(original, out);
    if (bad !== undefined) throw conversionError(`conversion webhook for ${gvk} returned invalid object: ${bad}`);
    const meta = restoreObjectMeta(original, out);
    if (meta !== undefined) throw conversionError(`conversion webhook for ${gvk} returned invalid metadata: ${meta}`);
    return out;
  }
}
