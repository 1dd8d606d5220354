// The practice form: go to /practice/<n>/?variant=...[&takeback=1], pick a random deal, or ask the
// server for a proven-winnable deal of a tier (POST /api/games/ {practice, variant}).

import { api, whenReady } from "../shared/api.js";
import { siteConstants } from "../shared/dom.js";
import { tierWord } from "../shared/game_names.js";
import { gettext, interpolate } from "../shared/i18n.js";

const MAX_DEAL = BigInt(siteConstants().max_deal);
const form = document.querySelector("[data-practice-form]");
const status = document.querySelector("[data-practice-status]");

function go(deal, game) {
  const variant = form.elements.variant.value;
  const takeback = form.elements.takeback.checked ? "&takeback=1" : "";
  const extra = game ? `&game=${encodeURIComponent(game)}` : "";
  window.location.href = `/practice/${deal}/?variant=${encodeURIComponent(variant)}${takeback}${extra}`;
}

form.addEventListener("submit", (e) => {
  e.preventDefault();
  const deal = form.elements.deal.value.trim();
  if (/^[0-9]{1,20}$/.test(deal) && BigInt(deal) <= MAX_DEAL) go(deal);
  else form.elements.deal.setCustomValidity(interpolate(gettext("A whole number from 0 to %(max)s"), { max: MAX_DEAL }));
  form.reportValidity();
});
form.elements.deal.addEventListener("input", () => form.elements.deal.setCustomValidity(""));
form.querySelector("[data-random]").addEventListener("click", () => {
  go(Math.floor(Math.random() * 1_000_000_000));
});

const tierButtons = [...form.querySelectorAll("[data-tier]")];

async function dealTier(tier) {
  const variant = form.elements.variant.value;
  tierButtons.forEach((b) => { b.disabled = true; });
  const values = { tier: tierWord(tier) };
  status.textContent = interpolate(gettext("Finding a proven %(tier)s deal…"), values);
  try {
    const takeback = form.elements.takeback.checked;
    const game = await whenReady(() => api.post("/api/games/", { practice: tier, variant, takeback }), {
      waiting: (seconds) => {
        status.textContent = interpolate(
          gettext("Preparing proven %(tier)s deals (the solver is at work); asking again in %(seconds)s s…"),
          { ...values, seconds },
        );
      },
    });
    go(game.deal, game.id);
  } catch (err) {
    status.textContent = err.message;
    tierButtons.forEach((b) => { b.disabled = false; });
  }
}

tierButtons.forEach((button) => {
  button.addEventListener("click", () => dealTier(button.dataset.tier));
});

// Proven deals of a tier exist for the variants with a practice pool (data-pooled) only;
// take-back is an option of the one-deck variants (data-multi-deck: the others).
const pooled = form.elements.variant.dataset.pooled.split(" ");
const multiDeck = form.elements.variant.dataset.multiDeck.split(" ");
function syncTiers() {
  const takeback = form.elements.takeback;
  takeback.disabled = multiDeck.includes(form.elements.variant.value);
  if (takeback.disabled) takeback.checked = false;
  // a variant no deal of which the solver ever won (the published study) says so
  document.querySelectorAll("[data-never-won]").forEach((note) => {
    note.hidden = note.dataset.neverWon !== form.elements.variant.value;
  });
  const hasPool = pooled.includes(form.elements.variant.value);
  tierButtons.forEach((b) => { b.disabled = !hasPool; });
  status.textContent = hasPool ? ""
    : gettext("Proven deals of a tier are dealt in the variants with today's rules; pick a deal number for this one.");
}
form.elements.variant.addEventListener("change", syncTiers);
syncTiers();
