/**
 * The converter a CRD's `spec.conversion` asks for (CRConverterFactory.NewConverter): none for
 * strategy None, whose objects the generic store converts by setting apiVersion, and the webhook
 * converter for strategy Webhook, calling `spec.conversion.webhook.clientConfig` through the
 * server's webhook client.
 */
import type { Obj } from '../../rest.ts';
import { isObject } from '../../crd/internal.ts';
import { crConverter, type VersionConverter } from './converter.ts';
import { WebhookConverter, type ConversionWebhookClient } from './webhook.ts';

/** What serving custom resources needs beyond a kind's store. */
export interface CustomResourceDeps {
  /** How conversion webhooks are called (the server's webhook client). */
  conversionWebhooks?: ConversionWebhookClient;
}

/** Without a client every call fails, as an unreachable webhook does. */
const noClient: ConversionWebhookClient = {
  post: () => Promise.reject(new Error('failed to call webhook: no webhook client configured')),
};

/** The webhook converter of a (v1, defaulted, valid) CRD, or undefined when its strategy is None. */
export function webhookConversionOf(crd: Obj, client: ConversionWebhookClient | undefined): VersionConverter | undefined {
  const spec = isObject(crd.spec) ? crd.spec : {};
  const conversion = isObject(spec.conversion) ? spec.conversion : {};
  if (conversion.strategy !== 'Webhook') return undefined;
  const webhook = isObject(conversion.webhook) ? conversion.webhook : {};
  const versions = Array.isArray(spec.versions) ? (spec.versions as Obj[]).map((v) => String(v.name ?? '')) : [];
  return crConverter(
    String(spec.group ?? ''),
    versions,
    new WebhookConverter({
      client: client ?? noClient,
      clientConfig: isObject(webhook.clientConfig) ? webhook.clientConfig : {},
      conversionReviewVersions: Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [],
    }),
  );
}
