import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Vite build of the Parcela web app. The dev server proxies the four API bases and the
 * realtime endpoints to the API server (PORT, default 8080) so `npm run dev` works against it.
 */
const target = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': target,
      '/dev': target,
      '/broadcasting': target,
      '/app': { target, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Everything the entry loads statically goes into one chunk beside it, instead of a handful
        // of small shared chunks that each cost a request and compress worse (see `npm run bench`).
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});
