/**
 * The directive keys and values of the strategic merge patch format, as upstream spells them
 * (https://git.k8s.io/community/contributors/devel/sig-api-machinery/strategic-merge-patch.md).
 */

/** `$patch: replace | delete | merge` on a map or a list item. */
export const directiveMarker = '$patch';
export const deleteDirective = 'delete';
export const replaceDirective = 'replace';
export const mergeDirective = 'merge';

/** The patch strategy whose directive, `$retainKeys`, lists the keys a map keeps. */
export const retainKeysStrategy = 'retainKeys';
export const retainKeysDirective = '$' + retainKeysStrategy;

/** `$deleteFromPrimitiveList/<list>`: items to remove from a merged list of primitives. */
export const deleteFromPrimitiveListDirectivePrefix = '$deleteFromPrimitiveList';
/** `$setElementOrder/<list>`: the order of a merged list. */
export const setElementOrderDirectivePrefix = '$setElementOrder';
