/** The ServiceAccount admission plugin. */
export { cachedServiceAccountAdmission, serviceAccountAdmission, tokenVolumeSource, type ServiceAccountPluginOptions } from './plugin.ts';
