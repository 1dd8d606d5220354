// A refused form's message without the API's field name (api.js fieldErrorText), and a
// deleted account's board row: its name in the page's language, linked nowhere (html.js).

import { test } from "node:test";
import assert from "node:assert/strict";

import { fieldErrorText } from "../../frontend/static/frontend/js/shared/api.js";
import { rowName, rowPlayer } from "../../frontend/static/frontend/js/shared/html.js";

test("a validation error's message comes without the field's name", () => {
  const refused = {
    detail: "confirm: Escribe «eliminar mi cuenta» para confirmar.",
    errors: { confirm: ["Escribe «eliminar mi cuenta» para confirmar."] },
  };
  assert.equal(fieldErrorText(refused, "fallback"), "Escribe «eliminar mi cuenta» para confirmar.");
  assert.equal(fieldErrorText({ detail: "a.b: deep", errors: { a: { b: ["deep"] } } }, "x"), "deep");
  assert.equal(fieldErrorText({ detail: "not this", errors: ["whole form"] }, "x"), "whole form");
  // anything else as errorText reads it
  assert.equal(fieldErrorText({ detail: "Confirm who you are first." }, "x"), "Confirm who you are first.");
  assert.equal(fieldErrorText({ detail: "d", errors: {} }, "x"), "d");
  assert.equal(fieldErrorText(null, "the server answered 502"), "the server answered 502");
});

// Just enough of a document for el() (node has none).
class FakeElement {
  constructor(tag) { Object.assign(this, { tag, attributes: new Map(), children: [] }); }
  setAttribute(name, value) { this.attributes.set(name, String(value)); }
  append(...nodes) { this.children.push(...nodes); }
}

test("a deleted account's row: its name in the page's language, and no link", () => {
  globalThis.document = { createElement: (tag) => new FakeElement(tag) };
  try {
    const gone = { display_name: "deleted player", deleted: true };
    assert.equal(rowName(gone), "deleted player"); // gettext's English without a catalogue
    const cell = rowPlayer(gone);
    assert.equal(cell.tag, "span");
    assert.equal(cell.attributes.get("href"), undefined);
    assert.deepEqual(cell.children, ["deleted player"]);
    const ann = rowPlayer({ display_name: "Ann", deleted: false });
    assert.equal(ann.tag, "a");
    assert.equal(ann.attributes.get("href"), "/players/Ann/");
    assert.equal(rowName({ display_name: "Ann", deleted: false }), "Ann");
  } finally {
    delete globalThis.document;
  }
});
