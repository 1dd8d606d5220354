// The browser's commitment text and SHA-256 (proof.js) agree with games/proof.py's pinned vector.

import { test } from "node:test";
import assert from "node:assert/strict";

import { commitmentText, sha256Hex, shortCommitment } from "../../frontend/static/frontend/js/shared/proof.js";

const OPENING = {
  date: "2026-12-01", tier: "easy", variant: "yukon", algorithm_version: 1,
  deal: "18446744073709551615", salt: "00112233445566778899aabbccddeeff",
};
// tests/games/test_commitment.py pins the same value for the server
const PINNED = "fc398e2c95590f79225e1fa95d038c8266333e509088d9a9cfed4a9fc1f4bdac";

test("the text is the server's, line for line", () => {
  assert.equal(
    commitmentText(OPENING),
    "yukon-daily-commitment-v1\n2026-12-01\neasy\nyukon\n1\n18446744073709551615\n"
      + "00112233445566778899aabbccddeeff\n",
  );
});

test("its SHA-256 is the pinned commitment, and any change breaks it", async () => {
  assert.equal(await sha256Hex(commitmentText(OPENING)), PINNED);
  const other = await sha256Hex(commitmentText({ ...OPENING, deal: "18446744073709551614" }));
  assert.notEqual(other, PINNED);
});

test("the short form is a prefix", () => {
  assert.equal(shortCommitment(PINNED), "fc398e2c9559…");
});
