// Passkeys explained where they cannot work (shared/passkeys.js) and the address a log-in
// or sign-up goes on to (shared/next_url.js): issue 39, items 5 and 7.

import { test } from "node:test";
import assert from "node:assert/strict";

import { passkeyFailure, passkeyProblem } from "../../frontend/static/frontend/js/shared/passkeys.js";
import { safeNext } from "../../frontend/static/frontend/js/shared/next_url.js";

const BROWSER = { isSecureContext: true, PublicKeyCredential: function PublicKeyCredential() {} };

function at(url) {
  const { protocol, hostname, host, port, pathname, search } = new URL(url);
  return { protocol, hostname, host, port, pathname, search };
}

test("passkeys work at localhost and over https", () => {
  assert.equal(passkeyProblem(at("http://localhost:8000/login/"), BROWSER), null);
  assert.equal(passkeyProblem(at("https://yukon.example/login/"), BROWSER), null);
});

test("at 127.0.0.1 (or [::1]) the page says to open localhost instead, same port and page", () => {
  const problem = passkeyProblem(at("http://127.0.0.1:8000/login/?next=/leagues/"), BROWSER);
  assert.match(problem.text, /^Passkeys need a secure address/);
  assert.equal(problem.href, "http://localhost:8000/login/?next=/leagues/");
  assert.equal(problem.linkText, "open http://localhost:8000/ instead");
  assert.equal(passkeyProblem(at("http://[::1]:8000/"), BROWSER).href, "http://localhost:8000/");
});

test("another IP address, plain HTTP elsewhere, or no passkeys in the browser: said in words", () => {
  const lan = passkeyProblem(at("https://192.168.1.5/"), BROWSER);
  assert.match(lan.text, /not an IP address \(192\.168\.1\.5\)/);
  assert.equal(lan.href, undefined);
  const plain = passkeyProblem(at("http://yukon.example/"), { ...BROWSER, isSecureContext: false });
  assert.match(plain.text, /secure address: open this page over https/);
  const old = passkeyProblem(at("https://yukon.example/"), { isSecureContext: true });
  assert.match(old.text, /This browser cannot use passkeys/);
});

test("a failed passkey says what happened", () => {
  assert.match(passkeyFailure({ name: "NotAllowedError" }), /No passkey was used/);
  assert.match(passkeyFailure({ name: "SecurityError" }), /refused passkeys at this address/);
  assert.equal(passkeyFailure(new Error("boom")), "The passkey did not work: boom");
});

test("next: a path on this site, never another site", () => {
  const origin = "http://localhost:8000";
  assert.equal(safeNext("/leagues/join/abc/", origin), "/leagues/join/abc/");
  assert.equal(safeNext("/leagues/?x=1#y", origin), "/leagues/?x=1#y");
  assert.equal(safeNext("http://localhost:8000/leagues/", origin), "/leagues/");
  for (const elsewhere of ["https://evil.example/", "//evil.example/", "/\\evil.example/", "javascript:alert(1)", "http://localhost:9000/"]) {
    assert.equal(safeNext(elsewhere, origin), "/", elsewhere);
  }
  assert.equal(safeNext(null, origin), "/");
  assert.equal(safeNext("", origin), "/");
});
