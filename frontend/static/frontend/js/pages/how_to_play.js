// Small board diagrams on the rules page, drawn with the same SVG cards as the game.
// data-diagram="4:XX.Ts5d3c 6:X.8dJs9h": column number, face-down cards (X), ".", face-up cards.

import { cardName, cardSvgElement } from "../shared/cards.js";
import { el } from "../shared/html.js";
import { gettext, interpolate } from "../shared/i18n.js";

for (const box of document.querySelectorAll("[data-diagram]")) {
  for (const spec of box.dataset.diagram.split(" ")) {
    const [label, cards] = spec.split(":");
    const [hidden, shown] = cards.split(".");
    const name = interpolate(gettext("col %(column)s"), { column: label });
    const col = el("div", "mini-col", el("span", "mini-label", name));
    // Positions through the style object: the policy refuses style attributes (docs/frontend.md).
    const place = (card, y) => {
      card.style.top = `${y}px`;
      col.append(card);
    };
    let y = 0;
    for (let i = 0; i < hidden.length; i++) {
      place(el("div", "card down"), y);
      y += 8;
    }
    for (let i = 0; i < shown.length; i += 2) {
      const card = shown.slice(i, i + 2);
      const mark = box.dataset.arrow && box.dataset.arrow.startsWith(card) ? " selected" : "";
      place(el("div", { class: `card up${mark}`, title: cardName(card) }, cardSvgElement(card)), y);
      y += 24;
    }
    col.style.height = `${y + 66}px`;
    box.append(col);
  }
}
