// Fields that say when the browser cuts what goes into them at their maxlength
// (shared/dom.js `sayWhenCut`; the leagues page's league name and "Follow a player"): the
// browser cuts a typed, pasted or dropped text without a word, so the page says so.

import { test } from "node:test";
import assert from "node:assert/strict";

import { sayWhenCut } from "../../frontend/static/frontend/js/shared/dom.js";

/** Just enough of an <input>: its value, selection and maxlength, and its beforeinput listener. */
function fakeField({ value = "", maxLength = 10, selection = [value.length, value.length] } = {}) {
  const field = { value, maxLength, selectionStart: selection[0], selectionEnd: selection[1] };
  field.addEventListener = (type, listener) => {
    assert.equal(type, "beforeinput");
    field.input = listener;
  };
  return field;
}

/** What `sayWhenCut` said after each input, in order. */
function said(field, ...inputs) {
  const words = [];
  sayWhenCut(field, (cut) => words.push(cut));
  for (const input of inputs) field.input(input);
  return words;
}

const typed = (data) => ({ data });
const pasted = (text) => ({ data: null, dataTransfer: { getData: (type) => (type === "text/plain" ? text : "") } });

test("typed: a character that fits says nothing is cut, one past the maxlength says it is", () => {
  assert.deepEqual(said(fakeField({ value: "123456789" }), typed("0")), [false]);
  assert.deepEqual(said(fakeField({ value: "1234567890" }), typed("1")), [true]);
});

test("pasted or dropped: the text's whole length counts, less what it replaces", () => {
  assert.deepEqual(said(fakeField({ value: "12345" }), pasted("abcdef")), [true]);
  assert.deepEqual(said(fakeField({ value: "12345" }), pasted("abcde")), [false]);
  // the selection ("345") goes: 2 kept + 8 pasted fit in 10
  assert.deepEqual(said(fakeField({ value: "12345", selection: [2, 5] }), pasted("abcdefgh")), [false]);
});

test("a deletion, and a field without a maxlength, never say anything is cut", () => {
  assert.deepEqual(said(fakeField({ value: "1234567890" }), { data: null }), [false]);
  assert.deepEqual(said(fakeField({ value: "x".repeat(500), maxLength: -1 }), typed("y")), [false]);
});
