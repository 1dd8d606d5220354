// A field's sentence when the browser cut what went into it (shared/dom.js `tellWhenCut`,
// on `sayWhenCut`): the sign-up and log-in forms, the account page's display name, the
// appeal and the report. The limit is the field's maxlength, written as the page's language
// writes numbers; the sentence goes at the field's next change, and only that sentence.

import { test } from "node:test";
import assert from "node:assert/strict";

import { sayWhenCut, tellWhenCut } from "../../frontend/static/frontend/js/shared/dom.js";

/** Just enough of an <input> or <textarea>: value, selection, maxlength, one beforeinput listener. */
function fakeField(value, maxLength) {
  const field = { value, maxLength, selectionStart: value.length, selectionEnd: value.length };
  field.addEventListener = (type, listener) => {
    assert.equal(type, "beforeinput");
    field.input = listener;
  };
  return field;
}

const typed = (data) => ({ data, inputType: "insertText" });
const SENTENCE = "A report has at most %(max)s characters: yours was cut to fit.";

test("cut: the sentence, its limit the field's maxlength as the page writes numbers", () => {
  const field = fakeField("x".repeat(2000), 2000);
  const line = { textContent: "" };
  tellWhenCut(field, line, SENTENCE);
  field.input(typed("y"));
  assert.equal(line.textContent, "A report has at most 2,000 characters: yours was cut to fit.");
  field.input({ data: null, inputType: "deleteContentBackward" });
  assert.equal(line.textContent, "");
});

test("the next change takes away that sentence only: the server's answer, another field's, stay", () => {
  const line = { textContent: "Wrong name or password." };
  const name = fakeField("abc", 30);
  tellWhenCut(name, line, "A display name has at most %(max)s characters: yours was cut to fit.");
  const login = fakeField("x".repeat(150), 150);
  tellWhenCut(login, line, "A log-in name has at most %(max)s characters: yours was cut to fit.");
  name.input(typed("d")); // fits: the server's answer stays
  assert.equal(line.textContent, "Wrong name or password.");
  login.input(typed("y"));
  assert.equal(line.textContent, "A log-in name has at most 150 characters: yours was cut to fit.");
  name.input(typed("e")); // fits, but the sentence is the other field's
  assert.equal(line.textContent, "A log-in name has at most 150 characters: yours was cut to fit.");
  login.input({ data: null, inputType: "deleteContentBackward" });
  assert.equal(line.textContent, "");
});

test("a line break past a text box's maxlength is cut too, and said", () => {
  const words = [];
  const full = fakeField("x".repeat(10), 10);
  sayWhenCut(full, (cut) => words.push(cut));
  full.input({ data: null, inputType: "insertLineBreak" });
  const room = fakeField("x".repeat(9), 10);
  sayWhenCut(room, (cut) => words.push(cut));
  room.input({ data: null, inputType: "insertLineBreak" });
  assert.deepEqual(words, [true, false]);
});
