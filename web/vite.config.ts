import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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
});
