// The JSON API serves exactly what the command line prints with --json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { BASE_URL, FAIRDICE_BIN } from "./support.mjs";

test("/api/dist?expr=3d6 equals `fairdice dist 3d6 --json`", async () => {
  const response = await fetch(`${BASE_URL}/api/dist?expr=3d6`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type"), /^application\/json/);
  const served = await response.text();
  const printed = execFileSync(FAIRDICE_BIN, ["dist", "3d6", "--json"], { encoding: "utf8" });
  assert.equal(served, printed);
  assert.deepEqual(JSON.parse(served), JSON.parse(printed));
});

test("API errors are JSON with the command line's caret rendering", async () => {
  const response = await fetch(`${BASE_URL}/api/dist?expr=${encodeURIComponent("2d6+")}`);
  assert.equal(response.status, 400);
  const { error } = await response.json();
  assert.equal(error.kind, "parse");
  const cli = (() => {
    try {
      execFileSync(FAIRDICE_BIN, ["dist", "2d6+"], { encoding: "utf8", stdio: "pipe" });
    } catch (failure) {
      return failure.stderr;
    }
  })();
  assert.equal(cli, `error: ${error.rendered}\n`);
});
