// Type-only view of what bench/content.ts bundles from the server (the bundle itself is built at run time).
export { buildApp } from '../server/src/app';
export { loadConfig } from '../server/src/config';
export { contentPlugin } from '../server/src/content/plugin';
export { openPglite } from '../server/src/db/client';
export { errorHandlerPlugin } from '../server/src/platform/error-handler';
