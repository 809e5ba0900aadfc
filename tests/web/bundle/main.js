// A page bundled by Vite that uses the fairdice package as any application would:
// `import { load } from "fairdice"`, the WebAssembly module emitted as an asset.
import { load } from "fairdice";

const fairdice = await load();
document.getElementById("mean").textContent = fairdice.dist("4d6kh3").mean_exact;
document.getElementById("roll").textContent = String(fairdice.roll("4d6kh3", { seed: 7 }).rolls[0].value);
