// The web fonts the site serves (frontend/static/frontend/fonts/, copied by scripts/vendor-fonts)
// are the npm package's files byte for byte, at the version package-lock.json pins, with the
// package's licence; site.css declares every one of them and base.html preloads them all.
// `make test` runs `npm ci` first, so node_modules holds the locked package here.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

const PACKAGE = "@fontsource/atkinson-hyperlegible-next";
const root = new URL("../../", import.meta.url);
const at = (path) => new URL(path, root);
const FONTS = "frontend/static/frontend/fonts/";
const served = readdirSync(at(FONTS)).filter((name) => name.endsWith(".woff2"));

test("the served fonts are the locked package's files, byte for byte", () => {
  const lock = JSON.parse(readFileSync(at("package-lock.json"), "utf8"));
  const installed = JSON.parse(readFileSync(at(`node_modules/${PACKAGE}/package.json`), "utf8"));
  assert.equal(installed.version, lock.packages[`node_modules/${PACKAGE}`].version);
  assert.equal(installed.license, "OFL-1.1");
  assert.ok(served.length >= 2, served.join());
  for (const name of served) {
    assert.deepEqual(readFileSync(at(FONTS + name)), readFileSync(at(`node_modules/${PACKAGE}/files/${name}`)), name);
  }
  assert.deepEqual(readFileSync(at(FONTS + "OFL.txt")), readFileSync(at(`node_modules/${PACKAGE}/LICENSE`)));
});

// optional, not swap: a late swap moved the play page's board (site.css says why).
test("site.css declares every served font with font-display: optional, and base.html preloads each", () => {
  const css = readFileSync(at("frontend/static/frontend/site.css"), "utf8");
  const faces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
  const declared = faces.map((face) => /url\(fonts\/([^)]+\.woff2)\)/.exec(face)?.[1]).sort();
  assert.deepEqual(declared, [...served].sort());
  for (const face of faces) assert.match(face, /font-display:\s*optional/);
  const base = readFileSync(at("frontend/templates/frontend/base.html"), "utf8");
  const preload = /<link rel="preload" href="{% static 'frontend\/fonts\/([^']+)' %}" as="font" type="font\/woff2" crossorigin>/g;
  assert.deepEqual([...base.matchAll(preload)].map((m) => m[1]).sort(), [...served].sort());
});
