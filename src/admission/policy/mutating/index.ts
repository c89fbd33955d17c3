/** MutatingAdmissionPolicy: the admission plugin, its compiled policies and the two patchers. */
export { mutatingAdmissionPolicy, type MutatingAdmissionPolicyOptions, type MutatingAdmissionPolicyPlugin } from './plugin.ts';
