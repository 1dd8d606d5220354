// The admin's step-through replay: positions come rendered per ply from the server
// (staff may see face-down cards); this only draws one of them and moves between them.
(function () {
  const root = document.querySelector("[data-admin-replay]");
  const data = document.getElementById("admin-replay-frames");
  if (!root || !data) return;
  const frames = JSON.parse(data.textContent);
  const table = root.querySelector("[data-table]");
  const found = root.querySelector("[data-found]");
  const label = root.querySelector("[data-label]");
  const scrub = root.querySelector("[data-scrub]");
  const SUITS = ["\u2663", "\u2666", "\u2665", "\u2660"];
  const RANKS = "A23456789TJQK";
  let at = 0;

  function card(text, down) {
    const el = document.createElement("span");
    el.className = "replay-card" + (down ? " down" : "") + ("dh".includes(text[1]) ? " red" : "");
    el.textContent = text[0] + SUITS["cdhs".indexOf(text[1])];
    return el;
  }

  function show(index) {
    at = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[at];
    table.replaceChildren(...frame.columns.map((col) => {
      const el = document.createElement("div");
      el.className = "replay-column";
      col.down.forEach((c) => el.appendChild(card(c, true)));
      col.up.forEach((c) => el.appendChild(card(c, false)));
      return el;
    }));
    found.textContent = "Home: " + frame.found.map((n, s) => SUITS[s] + (n ? RANKS[n - 1] : "-")).join("  ");
    label.textContent = `ply ${at}/${frames.length - 1} \u00b7 ${frame.move} \u00b7 ${frame.at_ms} ms \u00b7 score ${frame.score}`;
    scrub.value = String(at);
    document.querySelectorAll(".move-log tr.current").forEach((tr) => tr.classList.remove("current"));
    const row = document.querySelector(`.move-log tr[data-ply="${at - 1}"]`);
    if (row) row.classList.add("current");
  }

  scrub.max = String(frames.length - 1);
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  root.querySelectorAll("[data-step]").forEach((button) => {
    button.addEventListener("click", () => {
      const step = button.dataset.step;
      show(step === "first" ? 0 : step === "last" ? frames.length - 1 : at + (step === "back" ? -1 : 1));
    });
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select")) return;
    if (e.key === "ArrowRight") show(at + 1);
    else if (e.key === "ArrowLeft") show(at - 1);
  });
  show(0);
})();
