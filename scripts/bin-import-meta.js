// What `import.meta` stands for in the bin's packed CommonJS scripts (scripts/build-bin.ts):
// the packed file's own place, from the wrapper's __filename.
export const importMetaURL = require('node:url').pathToFileURL(__filename).href;
export const importMetaFilename = __filename;
export const importMetaDirname = __dirname;
export const importMetaResolve = (specifier) => require('node:url').pathToFileURL(require.resolve(specifier)).href;
