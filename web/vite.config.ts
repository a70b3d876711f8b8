import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// react-router's package exports point every build at its development files (dev warnings on); its production
// files exist beside them (remix-run/react-router#12532). The browser's production build takes those.
const reactRouterProduction = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

export default defineConfig(({ command, isSsrBuild, mode }) => ({
  plugins: [react()],
  resolve: {
    alias: command === 'build' && !isSsrBuild ? [{ find: /^react-router$/, replacement: reactRouterProduction }] : [],
  },
  // The server entry (docs/decisions/0018-server-rendering.md) carries its libraries, built for production like the
  // browser's: the class names MUI and emotion generate (labels in development builds) and React's build must not
  // depend on the server's NODE_ENV (`npm start` runs without one), or the browser would insert every style again.
  ...(isSsrBuild && mode === 'production'
    ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } }
    : {}),
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // bench/web-size reads it to follow what `/` loads.
    manifest: true,
    // Let the size report (bench/web-size) speak; the 500 kB warning is not our budget.
    chunkSizeWarningLimit: 1000,
  },
  server: {
    port: 5173,
    // `npm run dev`: the SPA on Vite, API calls to the portal server.
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
    },
  },
}));
