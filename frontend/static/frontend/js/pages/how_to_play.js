// Small board diagrams on the rules page, drawn with the same SVG cards as the game.
// data-diagram="4:XX.Ts5d3c 6:X.8dJs9h": column number, face-down cards (X), ".", face-up cards.

import { cardName, cardSvg } from "../shared/cards.js";

for (const box of document.querySelectorAll("[data-diagram]")) {
  for (const spec of box.dataset.diagram.split(" ")) {
    const [label, cards] = spec.split(":");
    const [hidden, shown] = cards.split(".");
    const col = document.createElement("div");
    col.className = "mini-col";
    col.innerHTML = `<span class="mini-label">col ${label}</span>`;
    let y = 0;
    for (let i = 0; i < hidden.length; i++) {
      col.insertAdjacentHTML("beforeend", `<div class="card down" style="top:${y}px"></div>`);
      y += 8;
    }
    for (let i = 0; i < shown.length; i += 2) {
      const card = shown.slice(i, i + 2);
      const mark = box.dataset.arrow && box.dataset.arrow.startsWith(card) ? " selected" : "";
      col.insertAdjacentHTML("beforeend",
        `<div class="card up${mark}" title="${cardName(card)}" style="top:${y}px">${cardSvg(card)}</div>`);
      y += 24;
    }
    col.style.height = `${y + 66}px`;
    box.append(col);
  }
}
