// Vite's settings for the bundle test: relative asset paths, and top-level await.
export default { base: "./", build: { target: "es2022", emptyOutDir: true } };
