import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The server that `npm run dev -w @switchboard/web` forwards API and relay calls to. */
const devServer = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: Object.fromEntries(['/api', '/v1', '/pg', '/mj', '/suno'].map((path) => [path, { target: devServer, changeOrigin: true }])),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd alone is ~330 KB gzip; routes are lazy, so only the shell crosses the default warning.
    chunkSizeWarningLimit: 1500,
  },
});
