/**
 * The console layer's public face: the web console and the CEL playground served under
 * /console/ (static files; the browser code calls the API as the user who loaded the page), and
 * the bundle build that `npm run build` runs.
 */
export { serveConsole, contentSecurityPolicy } from './static.ts';
export { buildBundle, bundleDir, ensureBundle } from './bundle.ts';
