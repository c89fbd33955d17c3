/** core/v1 PodTemplate defaulting (SetObjectDefaults_PodTemplate): its template's pod spec defaults. */
import type { Defaulter } from '../../builtin/native.ts';
import { defaultPodTemplateSpec, struct } from '../podspec/defaults.ts';

/** SetObjectDefaults_PodTemplate (`template` is a struct field: defaulted even when absent). MUTATES the object. */
export const defaultPodTemplate: Defaulter = (obj) => defaultPodTemplateSpec(struct(obj, 'template'));

export const podTemplateDefaulters: Readonly<Record<string, Defaulter>> = { '/v1/podtemplates': defaultPodTemplate };
