// The level-1 mission checker, with or without a game.

import { api } from "./api.js";
import { cardNode, rawKind } from "./cards.js";
import { formulaHtml, formulaNode, h, hill } from "./dom.js";
import { choiceButtons } from "./home.js";
import { showRuling } from "./rulings.js";
import { $, S, pick, t } from "./state.js";

// --- The mission checker ---------------------------------------------------------------------

export function renderChecker() {
  const c = S.checker;
  const missions = S.catalog.missions;
  if (!c.mission) c.mission = missions[0]?.id;
  choiceButtons(
    "checker-missions",
    missions.map((m) => ({ value: m.id, label: `${m.id} · ${pick(m.name)}`, sub: hill(m.elements) })),
    c.mission,
    (id) => {
      c.mission = id;
      c.ruling = null;
      renderChecker();
    },
  );
  for (const button of $("checker-missions").children) {
    const sub = button.querySelector(".sub");
    if (sub) sub.innerHTML = formulaHtml(sub.textContent);
  }
  const query = c.query.trim().toLowerCase();
  const matches = S.catalog.raw_materials.filter(
    (raw) => !query || raw.formula.toLowerCase().includes(query) || raw.name.ru.toLowerCase().includes(query) || raw.name.en.toLowerCase().includes(query) || raw.id.includes(query),
  );
  $("checker-cards").replaceChildren(
    ...matches.map((raw) =>
      h(
        "button",
        { type: "button", dataset: { raw: raw.id, formula: raw.formula }, onclick: () => changeCount(raw.id, 1) },
        h("b", {}, formulaNode(raw.formula)),
        h("span", { class: "hint" }, pick(raw.name)),
        c.counts.get(raw.id) ? h("span", { class: "count" }, String(c.counts.get(raw.id))) : null,
      ),
    ),
  );
  const chosen = [...c.counts.entries()].filter(([, n]) => n > 0);
  $("checker-chosen").replaceChildren(
    ...(chosen.length
      ? chosen.map(([id, n]) => {
          const raw = S.catalog.raw_materials.find((r) => r.id === id);
          return h("button", { type: "button", dataset: { chosen: id }, title: "−1", onclick: () => changeCount(id, -1) }, formulaNode(raw.formula), n > 1 ? ` ×${n}` : "", " ✕");
        })
      : [h("p", { class: "hint" }, t("nothing_chosen"))]),
  );
  const hand = S.game?.state?.players.find((p) => p.id === S.game.viewer)?.raw_cards || [];
  let useHand = $("checker-hand");
  if (hand.length && !useHand) {
    useHand = h("button", { type: "button", class: "secondary", id: "checker-hand", onclick: () => { c.counts.clear(); hand.forEach((card) => changeCount(rawKind(card), 1, false)); renderChecker(); } }, t("use_hand"));
    $("checker-clear").before(useHand);
  } else if (!hand.length && useHand) useHand.remove();
  renderCheckerRuling();
}

export function changeCount(id, delta, redraw = true) {
  const c = S.checker;
  const n = Math.max(0, (c.counts.get(id) || 0) + delta);
  if (n) c.counts.set(id, n);
  else c.counts.delete(id);
  c.ruling = null;
  if (redraw) renderChecker();
}

export async function checkMission() {
  const c = S.checker;
  const cards = [...c.counts.entries()].flatMap(([id, n]) => Array(n).fill(id));
  const houseRules = (S.game?.state?.house_rules || []).filter((r) => ["whole-hand", "at-least"].includes(r));
  try {
    const { data } = await api("/api/mission", { mission: c.mission, cards, house_rules: houseRules });
    c.ruling = data.ruling;
  } catch (failure) {
    c.ruling = failure.ruling || { verdict: "outside-rules", reason: { ru: failure.message, en: failure.message }, rules: [] };
  }
  renderCheckerRuling();
  $("checker-ruling").scrollIntoView({ behavior: "smooth", block: "nearest" });
}

export function renderCheckerRuling() {
  const ruling = S.checker.ruling;
  if (!ruling) return showRuling("checker-ruling", null);
  const facts = ruling.facts || {};
  const used = facts.cards_used || facts.closest_cards || [];
  const row = (label, node) => h("p", {}, h("b", {}, `${label}: `), node);
  const extra = h(
    "div",
    { class: "facts" },
    facts.needed ? row(t("needed"), h("span", { class: "tally" }, formulaNode(facts.needed_formula || hill(facts.needed)))) : null,
    facts.held ? row(t("held"), h("span", { class: "tally" }, formulaNode(facts.held_formula || hill(facts.held)))) : null,
    used.length
      ? h("div", {}, h("b", {}, `${facts.cards_used ? t("complete_used") : t("closest")}:`), h("div", { class: "cards", id: "checker-used" }, used.map((id) => cardNode(id, facts.cards_used ? "used" : ""))))
      : null,
    facts.missing && Object.keys(facts.missing).length ? row(t("missing"), h("span", { class: "tally", id: "checker-missing" }, formulaNode(hill(facts.missing)))) : null,
    Object.keys(facts.excess_elements || facts.excess || {}).length
      ? row(t("excess"), h("span", { class: "tally", id: "checker-excess" }, formulaNode(hill(facts.excess_elements || facts.excess))))
      : null,
  );
  showRuling("checker-ruling", ruling, { extra });
}
