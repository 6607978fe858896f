import { defineConfig } from "vite";
import { svelte } from "@sveltejs/vite-plugin-svelte";

// Tauri serves `dist/` from its own protocol; the dev server is what
// `tauri dev` points at (devUrl http://localhost:1420).
export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  server: {
    port: 1420,
    strictPort: true,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  envPrefix: ["VITE_", "TAURI_ENV_"],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // WebKitGTK / WKWebView; WebView2 is newer than this anyway.
    target: "safari15",
    sourcemap: false,
  },
});
