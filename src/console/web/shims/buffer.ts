/**
 * Node's `Buffer` global for the browser bundle (the shared layers use it for UTF-8 lengths,
 * base64 and hex): the `buffer` package, injected by the bundle build wherever `Buffer` is named.
 */
export { Buffer } from 'buffer';
